/**
 * The process launcher's twin for gateways forked by a fork server (ForkServer.ts): same
 * environment (processEnv), same log, same readiness (GET /health), same stops (SIGINT to the
 * group is Hermes' planned stop, SIGKILL after a grace); only the start differs, a fork of a warm
 * interpreter instead of a new one. A restart or crash inside a scenario forks again on the same
 * HERMES_HOME. With `killOnRelease`, closing the scope SIGKILLs instead of stopping gracefully:
 * a fresh gateway's HERMES_HOME is thrown away with it, so nothing needs Hermes' shutdown.
 */
import { FileSystem } from "@effect/platform"
import { Duration, Effect, type Scope, ScopedRef } from "effect"
import { GatewayStartFailed } from "../errors.js"
import type { ForkServer } from "./ForkServer.js"
import { type LaunchedGateway, launchedGateway, logTail } from "./Launcher.js"
import { processEnv, type ProcessLaunchOptions } from "./ProcessLauncher.js"
import { groupAlive, killGroup, trackGroup, untrackGroup } from "./processGroups.js"
import { waitHealthy } from "./waitHealthy.js"

export type ForkLaunchOptions = ProcessLaunchOptions & {
  readonly server: ForkServer
}

/** Waits until the group is gone (the server reaps its children within 0.2 s); true when it went within `ms`. */
const awaitGone = (pgid: number, ms: number) =>
  Effect.gen(function*() {
    const deadline = Date.now() + ms
    while (groupAlive(pgid)) {
      if (Date.now() >= deadline) return false
      yield* Effect.sleep(Duration.millis(50))
    }
    return true
  })

const forkedGateway = (o: ForkLaunchOptions) =>
  Effect.acquireRelease(
    Effect.tap(o.server.fork({ env: processEnv(o), cwd: o.home.workDir, log: o.home.logFile }), trackGroup),
    (pgid) =>
      Effect.gen(function*() {
        killGroup(pgid, "SIGKILL")
        yield* awaitGone(pgid, 10_000)
        untrackGroup(pgid)
      })
  )

export const launchForked = (o: ForkLaunchOptions): Effect.Effect<LaunchedGateway, GatewayStartFailed, Scope.Scope | FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const baseUrl = `http://127.0.0.1:${o.home.port}`
    const progress = o.progress ?? (() => {})
    const current = yield* ScopedRef.make((): number | null => null)
    let pgid: number | null = null
    const set = (next: Effect.Effect<number | null, GatewayStartFailed, Scope.Scope>) =>
      Effect.tap(ScopedRef.set(current, next).pipe(Effect.zipRight(ScopedRef.get(current))), (p) => {
        pgid = p
      })
    const kill = set(Effect.succeed(null)).pipe(Effect.asVoid, Effect.orDie)

    const start = Effect.gen(function*() {
      const started = yield* set(forkedGateway(o))
      const health = yield* waitHealthy(baseUrl, {
        timeoutMs: o.readyTimeoutMs ?? 120_000,
        exited: () => (started !== null && !groupAlive(started) ? "gateway exited" : null)
      })
      if (!health.ok) {
        yield* kill
        const tail = yield* Effect.provideService(logTail(o.home.logFile), FileSystem.FileSystem, fs)
        return yield* new GatewayStartFailed({ reason: health.reason, logFile: o.home.logFile, logTail: tail })
      }
      progress(`gateway ready at ${baseUrl} (forked)`)
    })

    const stopGracefully = Effect.gen(function*() {
      const running = yield* ScopedRef.get(current)
      if (running === null) return
      killGroup(running, "SIGINT")
      if (!(yield* awaitGone(running, 20_000))) progress("gateway ignored SIGINT for 20 s; killing")
      yield* kill
    })

    return yield* launchedGateway({
      baseUrl,
      home: o.home,
      processGroup: () => pgid,
      containerId: () => null,
      start,
      stopGracefully,
      kill,
      ...(o.killOnRelease === true ? { release: kill } : {})
    })
  })
