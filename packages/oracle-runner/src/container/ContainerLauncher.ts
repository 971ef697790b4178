/**
 * Runs the gateway in a container (testcontainers) from the locally built image, with host
 * networking so it binds 127.0.0.1:PORT on the host and reaches the fake model on host loopback.
 * The temp root (HERMES_HOME, HOME, work dir, faketime file) is bind-mounted at the same path, so
 * config.yaml paths mean the same inside and out; the container's output is appended to the log.
 *
 * Stop = SIGINT (Hermes' planned stop) then removal; crash = SIGKILL, then a new container on the
 * same HERMES_HOME. Each container gets the CPU weight its gateway would have as a host process of
 * the runner (cpuWeight.ts), and carries its runner's pid so that a later launch removes it if the
 * runner was killed outright (orphans.ts).
 */
import { createWriteStream } from "node:fs"
import { NodeFileSystem } from "@effect/platform-node"
import { Effect } from "effect"
import { execa } from "execa"
import { GatewayStartFailed, MissingTool, PinUnavailable } from "../errors.js"
import type { FakeClock } from "../gateway/FakeClock.js"
import type { HermesHome } from "../gateway/hermesHome.js"
import { type LauncherControls, logTail, type Progress, promiseControls } from "../gateway/Launcher.js"
import { waitHealthy } from "../gateway/waitHealthy.js"
import type { Pin } from "../lock/SourceLock.js"
import { toPromise } from "../promiseFace.js"
import { settleContainerCpu, trackContainerCpu } from "./containerCpu.js"
import { type CpuPlacement, cpuPlacement } from "./cpuWeight.js"
import { containerEnvDefaults, probeEngine } from "./engine.js"
import { ensureHermesImage, IMAGE_VENV } from "./HermesImage.js"
import { ownerLabels, removeOrphans, ROLE_LABEL } from "./orphans.js"

export type ContainerLaunchOptions = {
  readonly pinName: string
  readonly pin: Pin
  readonly home: HermesHome
  /** The faketime library path inside the image (Debian's, same as on the host). */
  readonly clock?: { readonly clock: FakeClock; readonly lib: string }
  readonly readyTimeoutMs?: number
  readonly keepTemp?: boolean
  readonly progress?: Progress
}

const containerEnv = (o: ContainerLaunchOptions): Record<string, string> => ({
  PATH: `${IMAGE_VENV}/bin:/usr/local/bin:/usr/bin:/bin`,
  HOME: o.home.home,
  HERMES_HOME: o.home.hermesHome,
  TERMINAL_CWD: o.home.workDir,
  LANG: "C.UTF-8",
  TZ: "UTC",
  PYTHONUNBUFFERED: "1",
  API_SERVER_KEY: o.home.apiKey,
  API_SERVER_HOST: "127.0.0.1",
  API_SERVER_PORT: String(o.home.port),
  TIRITH_ENABLED: "false",
  HERMES_DISABLE_LAZY_INSTALLS: "1",
  HERMES_GATEWAY_MAX_STARTS: "0",
  HERMES_GATEWAY_NO_SUPERVISE: "1",
  ...(o.clock ? o.clock.clock.env(o.clock.lib) : {})
})

let orphansSwept: Promise<Array<string>> | undefined

/** testcontainers keeps the host config to itself; the CPU weight and cgroup parent are set on it here. */
const gatewayContainer = async (image: string, placement: CpuPlacement | null) => {
  const { GenericContainer } = await import("testcontainers")
  class GatewayContainer extends GenericContainer {
    constructor() {
      super(image)
      if (placement === null) return
      this.hostConfig.CpuShares = placement.cpuShares
      if (placement.cgroupParent !== undefined) this.hostConfig.CgroupParent = placement.cgroupParent
    }
  }
  return new GatewayContainer()
}

export const launchContainer = async (o: ContainerLaunchOptions): Promise<LauncherControls> => {
  const progress = o.progress ?? (() => {})
  const engine = await probeEngine()
  if (!engine.ok) {
    throw new MissingTool({ tool: "container engine", hint: `${engine.reason}; start one with scripts/container-engine.sh up` })
  }
  if (!o.pin.obtain.pypi) {
    const img = o.pin.obtain.image
    throw new PinUnavailable({
      pin: o.pinName,
      reason: img ? `its image ${img.ref}@${img.digest} is not in the local image store and no registry is reachable here` : "the lock names no image",
      needed: img ? [`a registry reachable from the engine that serves ${img.ref} with digest ${img.digest}`, `or: docker load of that image, then retry`] : []
    })
  }
  containerEnvDefaults()
  // once per runner: containers left by runners that were killed outright
  const swept = await (orphansSwept ??= removeOrphans())
  if (swept.length > 0) progress(`removed ${swept.length} gateway container(s) left by runners that no longer run`)
  const image = await ensureHermesImage(o.pinName, o.pin, progress)
  const { Wait } = await import("testcontainers")
  const baseUrl = `http://127.0.0.1:${o.home.port}`
  let containerId: string | null = null

  let exitInfo: string | null = null
  const start = async (): Promise<void> => {
    exitInfo = null
    const t0 = performance.now()
    const placement = await cpuPlacement()
    const log = createWriteStream(o.home.logFile, { flags: "a" })
    const started = await (await gatewayContainer(image, placement))
      .withNetworkMode("host")
      .withBindMounts([{ source: o.home.root, target: o.home.root, mode: "rw" }])
      .withEnvironment(containerEnv(o))
      .withWorkingDir(o.home.workDir)
      .withCommand(["hermes", "gateway", "run", "--replace", "-v", "--no-supervise"])
      .withLabels({ [ROLE_LABEL]: "gateway", "hermetic.pin": o.pinName, ...ownerLabels() })
      .withLogConsumer((s) => {
        s.pipe(log)
        // The log stream ends when the container's process exits.
        s.on("end", () => {
          exitInfo = "gateway container exited"
        })
      })
      // Readiness is judged by /health below; the container only has to be running.
      .withWaitStrategy(Wait.forLogMessage(/./))
      .withStartupTimeout(o.readyTimeoutMs ?? 120_000)
      .start()
    containerId = started.getId()
    trackContainerCpu(containerId)
    const running = performance.now()
    const health = await toPromise(waitHealthy(baseUrl, { timeoutMs: o.readyTimeoutMs ?? 120_000, exited: () => exitInfo }))
    if (!health.ok) {
      await removeNow()
      throw new GatewayStartFailed({ reason: health.reason, logFile: o.home.logFile, logTail: await toPromise(Effect.provide(logTail(o.home.logFile), NodeFileSystem.layer)) })
    }
    const s = (ms: number) => (ms / 1000).toFixed(1)
    progress(`gateway ready at ${baseUrl} (container ${containerId.slice(0, 12)}, cpu weight ${placement?.cpuShares ?? "engine default"}; running after ${s(running - t0)} s, healthy after ${s(performance.now() - t0)} s)`)
  }

  const docker = (args: ReadonlyArray<string>) => execa("docker", args, { reject: false })

  const removeNow = async (): Promise<void> => {
    if (!containerId) return
    settleContainerCpu(containerId)
    await docker(["rm", "-f", containerId])
    containerId = null
  }

  const stopGracefully = async (): Promise<void> => {
    if (!containerId) return
    settleContainerCpu(containerId)
    await docker(["kill", "--signal", "INT", containerId])
    await execa("docker", ["wait", containerId], { reject: false, timeout: 20_000 })
    await removeNow()
  }

  return promiseControls({
    baseUrl,
    home: o.home,
    keepTemp: o.keepTemp,
    processGroup: () => null,
    containerId: () => containerId,
    start,
    stopGracefully,
    kill: async () => {
      if (containerId) {
        settleContainerCpu(containerId)
        await docker(["kill", "--signal", "KILL", containerId])
      }
      await removeNow()
    }
  })
}
