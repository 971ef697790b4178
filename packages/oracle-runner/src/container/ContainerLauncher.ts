/**
 * Runs the gateway in a container (testcontainers) from the locally built image, with host
 * networking so it binds 127.0.0.1:PORT on the host and reaches the fake model on host loopback.
 * The temp root (HERMES_HOME, HOME, work dir, faketime file) is bind-mounted at the same path, so
 * config.yaml paths mean the same inside and out; the container's output is appended to the log.
 *
 * Stop = SIGINT (Hermes' planned stop) then removal; crash = SIGKILL, then a new container on the
 * same HERMES_HOME.
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
import { containerEnvDefaults, probeEngine } from "./engine.js"
import { ensureHermesImage, IMAGE_VENV } from "./HermesImage.js"

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
  const image = await ensureHermesImage(o.pinName, o.pin, progress)
  const { GenericContainer, Wait } = await import("testcontainers")
  const baseUrl = `http://127.0.0.1:${o.home.port}`
  let containerId: string | null = null

  let exitInfo: string | null = null
  const start = async (): Promise<void> => {
    exitInfo = null
    const log = createWriteStream(o.home.logFile, { flags: "a" })
    const started = await new GenericContainer(image)
      .withNetworkMode("host")
      .withBindMounts([{ source: o.home.root, target: o.home.root, mode: "rw" }])
      .withEnvironment(containerEnv(o))
      .withWorkingDir(o.home.workDir)
      .withCommand(["hermes", "gateway", "run", "--replace", "-v", "--no-supervise"])
      .withLabels({ "hermetic.role": "gateway", "hermetic.pin": o.pinName })
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
    const health = await toPromise(waitHealthy(baseUrl, { timeoutMs: o.readyTimeoutMs ?? 120_000, exited: () => exitInfo }))
    if (!health.ok) {
      await removeNow()
      throw new GatewayStartFailed({ reason: health.reason, logFile: o.home.logFile, logTail: await toPromise(Effect.provide(logTail(o.home.logFile), NodeFileSystem.layer)) })
    }
    progress(`gateway ready at ${baseUrl} (container ${containerId.slice(0, 12)})`)
  }

  const docker = (args: ReadonlyArray<string>) => execa("docker", args, { reject: false })

  const removeNow = async (): Promise<void> => {
    if (!containerId) return
    await docker(["rm", "-f", containerId])
    containerId = null
  }

  const stopGracefully = async (): Promise<void> => {
    if (!containerId) return
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
      if (containerId) await docker(["kill", "--signal", "KILL", containerId])
      await removeNow()
    }
  })
}
