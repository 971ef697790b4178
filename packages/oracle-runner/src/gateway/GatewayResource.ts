/**
 * The real gateway as scoped Effect resources, released in reverse order when their scope closes
 * (success, failure or interruption): the fake model, the disposable HERMES_HOME (a scoped temp
 * directory through platform's FileSystem and Path), the faked clock, the verified venv or image,
 * and the launched gateway. Failures are the typed OracleErrors in the error channel; anything
 * else is a defect. `RealGatewayLayer` gives the gateway to programs as a service (the differ's
 * gateway target uses it); `startGateway` (Gateway.ts) is the Promise face of the same lifecycle.
 */
import { join } from "node:path"
import { NodeContext } from "@effect/platform-node"
import { Cause, Context, Effect, Exit, Layer, Scope } from "effect"
import { isOracleError, MissingTool, type OracleError, PinUnavailable } from "../errors.js"
import { startFakeModel } from "../fake-model/FakeModelServer.js"
import { readSourceLock } from "../lock/SourceLock.js"
import { ensureVenv } from "../venv/HermesVenv.js"
import { FakeClock, findFaketimeLib } from "./FakeClock.js"
import { freePort } from "./freePort.js"
import type { GatewayHandle, GatewayOptions } from "./Gateway.js"
import { resolvePin } from "./Gateway.js"
import { scopedHermesHome } from "./hermesHome.js"
import { semClockwaitShim } from "./semClockwaitShim.js"
import type { LaunchedGateway } from "./Launcher.js"
import { launchProcess } from "./ProcessLauncher.js"

/**
 * A step of the runner that is still Promise code (venv, launchers): its OracleErrors come back
 * into the error channel, anything else is a defect. The one place thrown errors are sorted.
 */
const runnerStep = <A>(step: () => Promise<A>): Effect.Effect<A, OracleError> =>
  Effect.tryPromise({ try: step, catch: (e) => e }).pipe(Effect.catchAll((e) => (isOracleError(e) ? Effect.fail(e) : Effect.die(e))))

const faketimeLibrary = Effect.suspend(() => {
  const lib = findFaketimeLib()
  return lib !== null
    ? Effect.succeed(lib)
    : Effect.fail(new MissingTool({ tool: "libfaketime", hint: "apt-get update && apt-get install -y faketime (or oracle-runner doctor --fix, or set HERMETIC_FAKETIME_LIB to libfaketimeMT.so.1)" }))
})

/** libfaketime plus the sem_clockwait shim (semClockwaitShim.ts) when it can be built: threads' timed waits then follow the faked clock. */
const preloadWithShim = (faketimeLib: string, progress: (line: string) => void, wallOnly: boolean) =>
  Effect.flatMap(
    Effect.promise(() => semClockwaitShim(progress).catch(() => null)),
    (shim) =>
      shim === null && wallOnly
        ? Effect.fail(new MissingTool({ tool: "cc", hint: "the wall-only clock needs the runner's clock shim, built with a C compiler: apt-get install -y gcc" }))
        : Effect.succeed(shim)
  ).pipe(Effect.map(
    // the shim first: its clock_nanosleep is then the one found (it hands over to libfaketime's unless the monotonic clock is real)
    (shim) => (shim === null ? faketimeLib : `${shim} ${faketimeLib}`)
  ))

const sourceLock = (path: string | undefined) =>
  Effect.tryPromise({
    try: () => readSourceLock(path),
    catch: (e) => new PinUnavailable({ pin: "?", reason: `source-lock.json cannot be read: ${e instanceof Error ? e.message : String(e)}`, needed: ["a valid source-lock.json"] })
  })

/** The gateway's parts, acquired in the current scope. */
const gatewayParts = (options: GatewayOptions) =>
  Effect.gen(function*() {
    const progress = options.progress ?? (() => {})
    const { lock } = yield* sourceLock(options.lockPath)
    const { name, pin } = yield* Effect.try({ try: () => resolvePin(lock, options.pin), catch: (e) => e as PinUnavailable })
    const launcherKind = options.launcher ?? "process"
    const faketimeLib = options.clock ? yield* faketimeLibrary : null
    const fakeModel = yield* Effect.acquireRelease(
      Effect.promise(() => startFakeModel()),
      (m) => Effect.promise(() => m.close())
    )
    const port = yield* Effect.promise(() => freePort())
    const home = yield* scopedHermesHome({
      fakeModelBaseUrl: fakeModel.baseUrl,
      fakeModelId: fakeModel.model,
      port,
      ...(options.determinism ? { determinism: options.determinism } : {}),
      ...(options.tools === true ? { tools: true } : {}),
      ...(options.keepTemp ? { keep: true } : {})
    })
    const clock = faketimeLib ? new FakeClock(join(home.root, "faketime.rc"), undefined, options.clock?.wallOnly === true ? "wall" : "both") : null
    if (clock) yield* Effect.promise(() => (options.clock?.start !== undefined ? clock.set(options.clock.start) : clock.write()))
    const common = {
      home,
      ...(clock && faketimeLib ? { clock: { clock, lib: launcherKind === "process" ? yield* preloadWithShim(faketimeLib, progress, options.clock?.wallOnly === true) : faketimeLib } } : {}),
      ...(options.readyTimeoutMs ? { readyTimeoutMs: options.readyTimeoutMs } : {}),
      // the scoped HERMES_HOME owns the temp root; the launcher must not remove it
      keepTemp: true,
      progress
    }
    const launch: Effect.Effect<LaunchedGateway, OracleError> =
      launcherKind === "process"
        ? Effect.gen(function*() {
            const venv = yield* runnerStep(() => ensureVenv(name, pin, { ...(options.source ? { source: options.source } : {}), progress }))
            progress(`starting hermes ${name} gateway (process) on 127.0.0.1:${port}`)
            return yield* runnerStep(() => launchProcess({ venv, ...common }))
          })
        : runnerStep(async () => {
            const { launchContainer } = await import("../container/ContainerLauncher.js")
            progress(`starting hermes ${name} gateway (container) on 127.0.0.1:${port}`)
            return launchContainer({ pinName: name, pin, ...common })
          })
    const launched = yield* Effect.acquireRelease(launch, (l) => Effect.promise(() => l.stop()))
    // the fake model's control plane moves this gateway's clock and restarts it (the shared contract)
    fakeModel.attachGateway({
      ...(clock ? { clock: { now: () => clock.now(), set: (s: number) => clock.set(s), advance: (s: number) => clock.advance(s) } } : {}),
      restart: () => launched.restart()
    })
    return { name, launcherKind, fakeModel, home, clock, launched }
  })

/**
 * Starts the gateway in a scope of its own; its handle's `stop()` closes that scope (once). For
 * callers that manage the lifetime themselves (the Promise API, the `up` command).
 */
export const openGateway = (options: GatewayOptions = {}): Effect.Effect<GatewayHandle, OracleError> =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    const parts = yield* Scope.extend(gatewayParts(options), scope).pipe(
      Effect.provide(NodeContext.layer),
      Effect.onExit((exit) => (Exit.isFailure(exit) ? Scope.close(scope, exit) : Effect.void))
    )
    const { name, launcherKind, fakeModel, home, clock, launched } = parts
    let stopping: Promise<void> | undefined
    const handle: GatewayHandle = {
      pin: name,
      launcher: launcherKind,
      baseUrl: launched.baseUrl,
      apiKey: launched.apiKey,
      fakeModelUrl: fakeModel.url,
      fakeModel,
      logFile: launched.logFile,
      hermesHome: home.hermesHome,
      tempRoot: home.root,
      processGroup: () => launched.processGroup(),
      containerId: () => launched.containerId(),
      clock: clock ? { now: () => clock.now(), set: (s) => clock.set(s), advance: (s) => clock.advance(s), freeze: (f) => clock.freeze(f) } : null,
      script: (s) => fakeModel.appendScript(s),
      release: (h) => fakeModel.release(h),
      journal: () => fakeModel.journal(),
      restart: () => launched.restart(),
      crash: () => launched.crash(),
      stop: () => (stopping ??= Effect.runPromise(Scope.close(scope, Exit.void)))
    }
    return handle
  })

/** Kept for callers of the earlier name: the same as openGateway. */
export const acquireGateway = openGateway

/** A gateway that lives as long as the enclosing Scope. */
export const scopedGateway = (options: GatewayOptions = {}) => Effect.acquireRelease(openGateway(options), (gw) => Effect.promise(() => gw.stop()))

/** The real gateway as a service, for programs that take it from their environment. */
export class RealGateway extends Context.Tag("@hermetic/oracle-runner/RealGateway")<RealGateway, GatewayHandle>() {}

export const RealGatewayLayer = (options: GatewayOptions = {}): Layer.Layer<RealGateway, OracleError> => Layer.scoped(RealGateway, scopedGateway(options))

/** The Promise face of openGateway: rejects with the OracleError itself (not a fiber failure wrapping it). */
export const startGateway = async (options: GatewayOptions = {}): Promise<GatewayHandle> => {
  const exit = await Effect.runPromiseExit(openGateway(options))
  if (Exit.isSuccess(exit)) return exit.value
  throw Cause.squash(exit.cause)
}

/** Plain Promise wrapper: runs `use` with a started gateway and always stops it afterwards. */
export const withGateway = async <A>(options: GatewayOptions, use: (gw: GatewayHandle) => Promise<A>): Promise<A> => {
  const gw = await startGateway(options)
  try {
    return await use(gw)
  } finally {
    await gw.stop()
  }
}
