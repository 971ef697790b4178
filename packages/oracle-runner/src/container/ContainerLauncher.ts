/**
 * Runs the gateway in a container (testcontainers) from the locally built image, with host
 * networking so it binds 127.0.0.1:PORT on the host and reaches the fake model on host loopback.
 * The temp root (HERMES_HOME, HOME, work dir, faketime file) is bind-mounted at the same path, so
 * config.yaml paths mean the same inside and out; the container's output is appended to the log.
 *
 * The shape of Launcher.ts, as the process launcher: the running container is a scoped resource
 * held in a ScopedRef — (re)starting replaces it and the old one's release removes it; whatever
 * runs when the launcher's Scope closes is removed too. Stop = SIGINT (Hermes' planned stop), then
 * removal; crash = SIGKILL, then a new container on the same HERMES_HOME.
 *
 * Each container gets the CPU weight its gateway would have as a host process of the runner
 * (cpuWeight.ts), and carries its runner's pid so that a later launch removes it if the runner was
 * killed outright (orphans.ts); its CPU time is counted from its cgroup (containerCpu.ts).
 */
import { createWriteStream } from "node:fs"
import { FileSystem } from "@effect/platform"
import { Effect, type Scope, ScopedRef } from "effect"
import { GatewayStartFailed, MissingTool, type OracleError, PinUnavailable } from "../errors.js"
import { runCommand } from "../exec/Command.js"
import type { FakeClock } from "../gateway/FakeClock.js"
import { gatewayEnv } from "../gateway/gatewayEnv.js"
import type { HermesHome } from "../gateway/hermesHome.js"
import { type LaunchedGateway, launchedGateway, logTail, type Progress } from "../gateway/Launcher.js"
import { waitHealthy } from "../gateway/waitHealthy.js"
import type { Pin } from "../lock/SourceLock.js"
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
  readonly progress?: Progress
  /** Closing the scope kills the container instead of Hermes' planned stop. */
  readonly killOnRelease?: boolean
}

const docker = (...args: ReadonlyArray<string>) => runCommand("docker", args)

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

/**
 * Host files the gateway preloads that the image does not have (the runner's sem_clockwait shim,
 * built into the cache): bind-mounted read-only at the same path. The image has /usr's own.
 */
export const preloadMounts = (lib: string | undefined): Array<{ source: string; target: string; mode: "ro" }> =>
  (lib ?? "").split(/[\s:]+/).filter((p) => p.startsWith("/") && !p.startsWith("/usr/")).map((p) => ({ source: p, target: p, mode: "ro" as const }))

/** One started gateway container, and why it stopped once it has. */
interface RunningContainer {
  readonly id: string
  readonly placement: CpuPlacement | null
  readonly startedMs: number
  readonly runningMs: number
  exitInfo: string | null
}

/** Creates and starts the container (it only has to be running; readiness is /health's). */
const startContainer = (o: ContainerLaunchOptions, image: string, placement: CpuPlacement | null) =>
  Effect.tryPromise({
    try: async (): Promise<RunningContainer> => {
      const t0 = performance.now()
      const { Wait } = await import("testcontainers")
      const log = createWriteStream(o.home.logFile, { flags: "a" })
      const holder: { running?: RunningContainer; ended: boolean } = { ended: false }
      const started = await (await gatewayContainer(image, placement))
        .withNetworkMode("host")
        .withBindMounts([{ source: o.home.root, target: o.home.root, mode: "rw" }, ...preloadMounts(o.clock?.lib)])
        .withEnvironment(gatewayEnv({ venvBin: `${IMAGE_VENV}/bin`, home: o.home, ...(o.clock ? { clock: o.clock } : {}) }))
        .withWorkingDir(o.home.workDir)
        .withCommand(["hermes", "gateway", "run", "--replace", "-v", "--no-supervise"])
        .withLabels({ [ROLE_LABEL]: "gateway", "hermetic.pin": o.pinName, ...ownerLabels() })
        .withLogConsumer((s) => {
          s.pipe(log)
          // the log stream ends when the container's process exits
          s.on("end", () => {
            holder.ended = true
            if (holder.running) holder.running.exitInfo = "gateway container exited"
          })
        })
        .withWaitStrategy(Wait.forLogMessage(/./))
        .withStartupTimeout(o.readyTimeoutMs ?? 120_000)
        .start()
      const running: RunningContainer = { id: started.getId(), placement, startedMs: t0, runningMs: performance.now(), exitInfo: holder.ended ? "gateway container exited" : null }
      holder.running = running
      trackContainerCpu(running.id)
      return running
    },
    catch: (e) => new GatewayStartFailed({ reason: `the container did not start: ${e instanceof Error ? e.message : String(e)}`, logFile: o.home.logFile, logTail: "" })
  })

/** Its CPU counted, then removed (docker rm -f kills what still runs). */
const removeContainer = (r: RunningContainer) =>
  Effect.gen(function*() {
    settleContainerCpu(r.id)
    yield* docker("rm", "-f", r.id)
  })

/** The container as a scoped resource: released = removed. */
const runningContainer = (o: ContainerLaunchOptions, image: string) =>
  Effect.acquireRelease(Effect.flatMap(cpuPlacement, (placement) => startContainer(o, image, placement)), removeContainer)

/** Containers of runners killed outright, removed once per runner process (the first launch). */
let orphansSwept = false
const sweepOrphans = (progress: Progress) =>
  Effect.suspend(() => {
    if (orphansSwept) return Effect.void
    orphansSwept = true
    return Effect.map(removeOrphans, (ids) => {
      if (ids.length > 0) progress(`removed ${ids.length} gateway container(s) left by runners that no longer run`)
    })
  })

/** The engine answers and the pin can be had as an image; the image is built (or found) for it. */
const gatewayImage = (o: ContainerLaunchOptions, progress: Progress): Effect.Effect<string, OracleError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const engine = yield* Effect.promise(probeEngine)
    if (!engine.ok) return yield* new MissingTool({ tool: "container engine", hint: `${engine.reason}; start one with scripts/container-engine.sh up` })
    if (!o.pin.obtain.pypi) {
      const img = o.pin.obtain.image
      return yield* new PinUnavailable({
        pin: o.pinName,
        reason: img ? `its image ${img.ref}@${img.digest} is not in the local image store and no registry is reachable here` : "the lock names no image",
        needed: img ? [`a registry reachable from the engine that serves ${img.ref} with digest ${img.digest}`, `or: docker load of that image, then retry`] : []
      })
    }
    containerEnvDefaults()
    yield* sweepOrphans(progress)
    return yield* ensureHermesImage(o.pinName, o.pin, progress)
  })

export const launchContainer = (o: ContainerLaunchOptions): Effect.Effect<LaunchedGateway, OracleError, Scope.Scope | FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const progress = o.progress ?? (() => {})
    const image = yield* gatewayImage(o, progress)
    const baseUrl = `http://127.0.0.1:${o.home.port}`
    // what runs now; replacing it releases (removes) the previous one
    const current = yield* ScopedRef.make((): RunningContainer | null => null)
    let containerId: string | null = null
    const set = (next: Effect.Effect<RunningContainer | null, GatewayStartFailed, Scope.Scope>) =>
      Effect.tap(ScopedRef.set(current, next).pipe(Effect.zipRight(ScopedRef.get(current))), (r) => {
        containerId = r?.id ?? null
      })
    const kill = set(Effect.succeed(null)).pipe(Effect.asVoid, Effect.orDie)

    const start = Effect.gen(function*() {
      const running = yield* set(runningContainer(o, image))
      const health = yield* waitHealthy(baseUrl, { timeoutMs: o.readyTimeoutMs ?? 120_000, exited: () => running?.exitInfo ?? null })
      if (!health.ok || running === null) {
        yield* kill
        const tail = yield* Effect.provideService(logTail(o.home.logFile), FileSystem.FileSystem, fs)
        return yield* new GatewayStartFailed({ reason: health.ok ? "no container" : health.reason, logFile: o.home.logFile, logTail: tail })
      }
      const s = (ms: number) => (ms / 1000).toFixed(1)
      progress(
        `gateway ready at ${baseUrl} (container ${running.id.slice(0, 12)}, cpu weight ${running.placement?.cpuShares ?? "engine default"}; ` +
          `running after ${s(running.runningMs - running.startedMs)} s, healthy after ${s(performance.now() - running.startedMs)} s)`
      )
    })

    const stopGracefully = Effect.gen(function*() {
      const running = yield* ScopedRef.get(current)
      if (running === null) return
      settleContainerCpu(running.id)
      // SIGINT is Hermes' planned stop (exit 0); the release then removes the container
      yield* docker("kill", "--signal", "INT", running.id)
      const waited = yield* runCommand("docker", ["wait", running.id], { timeoutMs: 20_000 })
      if (waited.exitCode === undefined) progress("gateway container ignored SIGINT for 20 s; removing it")
      yield* kill
    })

    return yield* launchedGateway({
      baseUrl,
      home: o.home,
      processGroup: () => null,
      containerId: () => containerId,
      start,
      stopGracefully,
      kill,
      ...(o.killOnRelease === true ? { release: kill } : {})
    })
  })
