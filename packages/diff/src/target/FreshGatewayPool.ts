/**
 * Fresh state per scenario play on the real gateway, the default of `oracle compare` (`--shared`
 * is the other way): every play of a scenario gets a gateway of its own — a new process, a new
 * HERMES_HOME (state.db, response_store.db, config.yaml), a new fake model and port — so message
 * ids, fork titles and the like start where the emulator's fresh namespace starts, and both plays
 * noise is learned from start from the same state.
 *
 * Why not reset HERMES_HOME under a running gateway: 0.19.0 keeps state in its process too (run
 * statuses and event buffers, the chat idempotency cache, open connections to state.db and
 * response_store.db), so only a new process is fresh. What makes a new process cheap: it is forked
 * from a fork server that already imported the venv's modules (the oracle runner's ForkServer.ts),
 * two per pool, alternated, so a scenario's two plays run under two hash seeds as two cold starts
 * would; it is started `ahead` in the background while a scenario plays; and a used one is SIGKILLed
 * (its home is thrown away, Hermes' planned stop buys nothing) in the background as the next play
 * begins. docs/fresh-state.md has the measurements behind each choice. Each gateway lives in a Scope
 * of its own, closed when it is retired; the pool's own scope closes whatever is left, then the servers.
 */
import { FileSystem, Path } from "@effect/platform"
import { NodeContext } from "@effect/platform-node"
import type { ForkServer, Gateway, GatewayOptions, OracleError } from "@hermetic/oracle-runner"
import { Effect, Exit, Fiber, type Scope as ScopeType, Scope } from "effect"
import { type GatewayTargetOptions, gatewayDriver } from "./GatewayTarget.js"
import type { LiveDriver } from "./LiveDriver.js"
import { liveTarget } from "./liveTarget.js"
import { loadOracleRunner, type OracleRunner, type OracleRunnerMissing } from "./oracleRunner.js"
import type { Target } from "./Target.js"

export interface FreshGatewayOptions extends GatewayTargetOptions {
  /** How many fresh gateways to keep starting ahead of the one in use (default 1). */
  readonly ahead?: number
  /**
   * How a fresh gateway starts: "fork" (default with the process launcher) forks it from one of
   * two fork servers that preloaded the venv's modules (ForkServer.ts in the oracle runner);
   * "process" starts a new interpreter. docs/fresh-state.md has the measurements.
   */
  readonly starter?: "fork" | "process"
  /** Stop a used gateway with SIGKILL (default) instead of Hermes' planned stop: its HERMES_HOME goes with it. */
  readonly gracefulRetire?: boolean
}

/** Pool counters, for the progress line: how many gateways were used and how long plays waited for one. */
export interface FreshPoolStats {
  started: number
  waitedMs: number
}

/** One started gateway, its driver, and how to stop it. */
interface Fresh {
  readonly gateway: Gateway
  readonly driver: LiveDriver
  readonly close: Effect.Effect<void>
}

/** Starts one gateway in a scope of its own, with the driver that restores its pristine config.yaml. */
const startFresh = ({ scopedGateway }: OracleRunner, options: GatewayOptions): Effect.Effect<Fresh, OracleError> =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    const close = Scope.close(scope, Exit.void)
    const gateway = yield* Scope.extend(scopedGateway(options), scope).pipe(Effect.onError(() => close))
    const fs = yield* FileSystem.FileSystem
    const configFile = (yield* Path.Path).join(gateway.hermesHome, "config.yaml")
    const pristineConfig = yield* Effect.orDie(fs.readFileString(configFile))
    return { gateway, driver: gatewayDriver(gateway, fs, configFile, pristineConfig), close }
  }).pipe(Effect.provide(NodeContext.layer))

/**
 * The real gateway as a Target with a fresh gateway per scenario play. The first gateway is
 * started before this returns (typed OracleErrors when it cannot: the venv may have to be built);
 * the rest are started ahead in the background. Everything stops when the scope closes.
 */
export const freshGatewayTarget = (options: FreshGatewayOptions): Effect.Effect<{ target: Target; stats: FreshPoolStats }, OracleError | OracleRunnerMissing, ScopeType.Scope> =>
  Effect.gen(function*() {
    const runner = yield* loadOracleRunner(`--target ${options.launcher}`)
    const gatewayOptions: GatewayOptions = {
      pin: options.pin,
      launcher: options.launcher,
      clock: options.wallClock === true ? { wallOnly: true } : {},
      ...(options.tools === true ? { tools: true } : {}),
      ...(options.corsOrigins !== undefined ? { corsOrigins: options.corsOrigins } : {}),
      ...(options.source !== undefined ? { source: options.source } : {})
    }
    const withProgress = { ...gatewayOptions, ...(options.progress ? { progress: options.progress } : {}) }
    // two servers, alternated play by play: a scenario's two plays then run under two hash seeds, as two cold starts do
    const servers: ReadonlyArray<ForkServer> = (options.starter ?? "fork") === "fork" && options.launcher === "process"
      ? [yield* runner.scopedGatewayForkServer(withProgress), yield* runner.scopedGatewayForkServer(gatewayOptions)]
      : []
    const optionsFor = (n: number): GatewayOptions => ({
      ...gatewayOptions,
      ...(servers.length > 0 ? { forkServer: servers[n % servers.length] as ForkServer } : {}),
      ...(options.gracefulRetire === true ? {} : { killOnRelease: true })
    })
    const stats: FreshPoolStats = { started: 1, waitedMs: 0 }
    const ahead = Math.max(1, options.ahead ?? 1)
    // gateways starting in the background, oldest first, and every gateway not yet stopped
    const queue: Array<Fiber.RuntimeFiber<Fresh, OracleError>> = []
    const live = new Set<Fresh>()
    const stopping: Array<Fiber.RuntimeFiber<void>> = []
    const retire = (f: Fresh) => {
      live.delete(f)
      stopping.push(Effect.runFork(f.close))
    }
    /** A gateway still starting is not needed any more: its start is interrupted, and what it made is closed. */
    const abandon = (fiber: Fiber.RuntimeFiber<Fresh, OracleError>) =>
      Effect.flatMap(Fiber.interrupt(fiber), (exit) => (Exit.isSuccess(exit) ? exit.value.close : Effect.void))
    yield* Effect.addFinalizer(() =>
      Effect.gen(function*() {
        for (const fiber of queue.splice(0)) yield* abandon(fiber)
        for (const f of [...live]) retire(f)
        yield* Fiber.joinAll(stopping)
        options.progress?.(`fresh gateways: ${stats.started} started; plays waited ${(stats.waitedMs / 1000).toFixed(1)} s in all for one to be ready`)
      })
    )
    // only the first gateway reports progress (it may build the venv); a line per fresh gateway would drown the comparison's own
    const first = yield* startFresh(runner, { ...optionsFor(0), ...(options.progress ? { progress: options.progress } : {}) })
    live.add(first)
    const fill = () => {
      while (queue.length < ahead) {
        queue.push(Effect.runFork(startFresh(runner, optionsFor(stats.started))))
        stats.started++
      }
    }
    fill()
    let current = first
    let used = false
    /** The next fresh gateway (waiting for it when it is still starting); another starts behind it. */
    const next: Effect.Effect<void, Error> = Effect.gen(function*() {
      retire(current)
      const fiber = queue.shift() as Fiber.RuntimeFiber<Fresh, OracleError>
      fill()
      const t0 = performance.now()
      // interrupted while waiting (Ctrl-C), the gateway is in neither the queue nor `live`: without
      // this its start would finish after the pool's finalizer ran, and its process and home stay behind
      const fresh = yield* Fiber.join(fiber).pipe(
        Effect.onInterrupt(() => abandon(fiber)),
        Effect.mapError((e) => new Error(`a fresh gateway did not start: ${e.message}`))
      )
      stats.waitedMs += performance.now() - t0
      live.add(fresh)
      current = fresh
    })
    const driver: LiveDriver = {
      fetch: (path, init) => current.driver.fetch(path, init),
      get apiKey() {
        return current.driver.apiKey
      },
      hiddenHeaders: () => current.driver.hiddenHeaders(),
      script: (s) => Effect.suspend(() => current.driver.script(s)),
      release: (h) => Effect.suspend(() => current.driver.release(h)),
      isHeld: (h) => Effect.suspend(() => current.driver.isHeld(h)),
      clock: (c) => Effect.suspend(() => current.driver.clock(c)),
      restart: (crash) => Effect.suspend(() => current.driver.restart(crash)),
      reset: Effect.suspend(() => current.driver.reset),
      drain: (on) => Effect.suspend(() => current.driver.drain(on)),
      modelCalls: Effect.suspend(() => current.driver.modelCalls),
      begin: Effect.suspend(() => {
        const fresh = used ? next : Effect.void
        used = true
        return Effect.zipRight(fresh, Effect.suspend(() => current.driver.begin))
      }),
      end: (holds) => Effect.suspend(() => current.driver.end(holds)),
      pollIntervalMs: first.driver.pollIntervalMs,
      ...(first.driver.deadlineScale !== undefined ? { deadlineScale: first.driver.deadlineScale } : {}),
      sseDeadlineMs: first.driver.sseDeadlineMs
    }
    const target = liveTarget(
      {
        kind: options.launcher === "process" ? "gateway-process" : "gateway-container",
        pin: first.gateway.pin,
        real: true,
        clock: "running",
        description: `real Hermes ${first.gateway.pin} gateway (${options.launcher} launcher, fake model, libfaketime), a fresh gateway per scenario play`
      },
      driver
    )
    return { target, stats }
  })
