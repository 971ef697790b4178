/**
 * The real gateway as scoped Effect resources, released in reverse order when their scope closes
 * (success, failure or interruption): the fake model, the disposable HERMES_HOME (a scoped temp
 * directory), the faked clock, the verified venv or image, and the launched gateway (its process
 * a scoped resource of the launcher). Files go through platform's FileSystem and Path. Failures
 * are the typed OracleErrors in the error channel; anything else is a defect.
 *
 * Effect programs take a `Gateway` from `scopedGateway` or `RealGatewayLayer` (the differ's
 * gateway target does). `startGateway` / `withGateway` are the one Promise face, for programs
 * that are not Effect: the only place this package runs an Effect to a Promise.
 */
import { FileSystem, Path } from "@effect/platform"
import { NodeContext } from "@effect/platform-node"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { MissingTool, type OracleError } from "../errors.js"
import { scopedFakeModel } from "../fake-model/FakeModelServer.js"
import { readSourceLock } from "../lock/SourceLock.js"
import { toPromise } from "../promiseFace.js"
import { ensureVenv } from "../venv/HermesVenv.js"
import { FakeClock, findFaketimeLib } from "./FakeClock.js"
import { freePort } from "./freePort.js"
import { type Gateway, type GatewayHandle, type GatewayOptions, resolvePin } from "./Gateway.js"
import { scopedHermesHome } from "./hermesHome.js"
import type { LaunchedGateway } from "./Launcher.js"
import { semClockwaitShim } from "./semClockwaitShim.js"
import { launchProcess } from "./ProcessLauncher.js"
import { launchForked } from "./ForkLauncher.js"
import { type ForkServer, scopedForkServer } from "./ForkServer.js"

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

/** The gateway and its parts, acquired in the current scope. */
const gatewayInScope = (options: GatewayOptions): Effect.Effect<Gateway, OracleError, Scope.Scope | FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const progress = options.progress ?? (() => {})
    const { lock } = yield* readSourceLock(options.lockPath)
    const { name, pin } = yield* resolvePin(lock, options.pin)
    const launcherKind = options.launcher ?? "process"
    const faketimeLib = options.clock ? yield* faketimeLibrary : null
    const fakeModel = yield* Effect.orDie(scopedFakeModel())
    const port = yield* freePort
    const path = yield* Path.Path
    const home = yield* scopedHermesHome({
      fakeModelBaseUrl: fakeModel.baseUrl,
      fakeModelId: fakeModel.model,
      port,
      ...(options.determinism ? { determinism: options.determinism } : {}),
      ...(options.tools === true ? { tools: true } : {}),
      ...(options.corsOrigins !== undefined ? { corsOrigins: options.corsOrigins } : {}),
      ...(options.keepTemp ? { keep: true } : {})
    })
    const clock = faketimeLib ? yield* FakeClock.make(path.join(home.root, "faketime.rc"), undefined, options.clock?.wallOnly === true ? "wall" : "both") : null
    if (clock) yield* (options.clock?.start !== undefined ? clock.set(options.clock.start) : clock.write)
    const common = {
      home,
      ...(clock && faketimeLib ? { clock: { clock, lib: yield* preloadWithShim(faketimeLib, progress, options.clock?.wallOnly === true) } } : {}),
      ...(options.readyTimeoutMs ? { readyTimeoutMs: options.readyTimeoutMs } : {}),
      ...(options.killOnRelease === true ? { killOnRelease: true } : {}),
      progress
    }
    const launched: LaunchedGateway = launcherKind === "process"
      ? yield* Effect.gen(function*() {
        const venv = yield* ensureVenv(name, pin, { ...(options.source ? { source: options.source } : {}), progress })
        if (options.forkServer !== undefined) {
          return yield* launchForked({ venv, ...common, server: options.forkServer })
        }
        progress(`starting hermes ${name} gateway (process) on 127.0.0.1:${port}`)
        return yield* launchProcess({ venv, ...common })
      })
      : yield* Effect.gen(function*() {
        progress(`starting hermes ${name} gateway (container) on 127.0.0.1:${port}`)
        // loaded on demand: testcontainers is only needed here
        const { launchContainer } = yield* Effect.promise(() => import("../container/ContainerLauncher.js"))
        return yield* launchContainer({ pinName: name, pin, ...common })
      })
    // the fake model's control plane moves this gateway's clock and restarts it (the shared contract)
    fakeModel.attachGateway({
      ...(clock ? { clock: { now: () => clock.now(), set: (s: number) => clock.set(s), advance: (s: number) => clock.advance(s) } } : {}),
      restart: launched.restart
    })
    return {
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
      restart: launched.restart,
      crash: launched.crash
    } satisfies Gateway
  })

/**
 * A fork server (ForkServer.ts) for gateways of these options (pin, source, clock mode), living as
 * long as the enclosing Scope: pass it as `forkServer` to scopedGateway. It runs in a scratch
 * directory under the same preload and clock mode as its gateways, at real time (each child gets
 * its own FAKETIME_TIMESTAMP_FILE).
 */
export const scopedGatewayForkServer = (options: GatewayOptions = {}): Effect.Effect<ForkServer, OracleError, Scope.Scope> =>
  Effect.gen(function*() {
    const progress = options.progress ?? (() => {})
    const { lock } = yield* readSourceLock(options.lockPath)
    const { name, pin } = yield* resolvePin(lock, options.pin)
    const venv = yield* ensureVenv(name, pin, { ...(options.source ? { source: options.source } : {}), progress })
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const dir = yield* Effect.orDie(fs.makeTempDirectoryScoped({ prefix: "hermetic-forkserver-" }))
    const faketimeLib = options.clock ? yield* faketimeLibrary : null
    const clock = faketimeLib ? yield* FakeClock.make(path.join(dir, "faketime.rc"), undefined, options.clock?.wallOnly === true ? "wall" : "both") : null
    if (clock) yield* clock.write
    const env: Record<string, string> = {
      PATH: `${venv.dir}/bin:/usr/local/bin:/usr/bin:/bin`,
      HOME: dir,
      HERMES_HOME: path.join(dir, "unused-hermes-home"),
      LANG: "C.UTF-8",
      TZ: "UTC",
      PYTHONUNBUFFERED: "1",
      HERMES_DISABLE_LAZY_INSTALLS: "1",
      ...(clock && faketimeLib ? clock.env(yield* preloadWithShim(faketimeLib, progress, options.clock?.wallOnly === true)) : {})
    }
    const server = yield* scopedForkServer(venv, env, dir, options.readyTimeoutMs)
    progress(`fork server ready (${server.preloaded} modules loaded)`)
    return server
  }).pipe(Effect.provide(NodeContext.layer))

/** A gateway that lives as long as the enclosing Scope. */
export const scopedGateway = (options: GatewayOptions = {}): Effect.Effect<Gateway, OracleError, Scope.Scope> =>
  Effect.provide(gatewayInScope(options), NodeContext.layer)

/** The real gateway as a service, for programs that take it from their environment. */
export class RealGateway extends Context.Tag("@hermetic/oracle-runner/RealGateway")<RealGateway, Gateway>() {}

export const RealGatewayLayer = (options: GatewayOptions = {}): Layer.Layer<RealGateway, OracleError> => Layer.scoped(RealGateway, scopedGateway(options))

/**
 * Starts the gateway in a scope of its own and gives its Promise face; `stop()` closes that scope
 * (once). For callers that manage the lifetime themselves.
 */
export const openGateway = (options: GatewayOptions = {}): Effect.Effect<GatewayHandle, OracleError> =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    const gw = yield* Scope.extend(scopedGateway(options), scope).pipe(
      Effect.onExit((exit) => (Exit.isFailure(exit) ? Scope.close(scope, exit) : Effect.void))
    )
    let stopping: Promise<void> | undefined
    const { clock, restart, crash, ...rest } = gw
    return {
      ...rest,
      clock: clock ? { now: () => clock.now(), set: (s) => toPromise(clock.set(s)), advance: (s) => toPromise(clock.advance(s)), freeze: (f) => toPromise(clock.freeze(f)) } : null,
      restart: () => toPromise(restart),
      crash: () => toPromise(crash),
      stop: () => (stopping ??= toPromise(Scope.close(scope, Exit.void)))
    } satisfies GatewayHandle
  })

/** The Promise face of the gateway: rejects with the OracleError itself. */
export const startGateway = (options: GatewayOptions = {}): Promise<GatewayHandle> => toPromise(openGateway(options))

/** Runs `use` with a started gateway and always stops it afterwards. */
export const withGateway = async <A>(options: GatewayOptions, use: (gw: GatewayHandle) => Promise<A>): Promise<A> => {
  const gw = await startGateway(options)
  try {
    return await use(gw)
  } finally {
    await gw.stop()
  }
}
