/**
 * Runs `hermes gateway run` from a verified venv as its own process group, with a clean
 * environment (only an allowlist of variables), output appended to one log file, and readiness
 * judged by GET /health. Stop = SIGINT to the group (Hermes' planned stop), SIGKILL after a grace.
 *
 * The running child is a scoped resource held in a ScopedRef: (re)starting replaces it, and the
 * old child's release SIGKILLs its group and waits until nothing of it is left. The ref lives in
 * the launcher's Scope, so whatever is running when that Scope closes is released too. See
 * Launcher.ts for the shape every launcher follows.
 */
import { FileSystem } from "@effect/platform"
import { execa } from "execa"
import { Duration, Effect, type Scope, ScopedRef } from "effect"
import { GatewayStartFailed } from "../errors.js"
import { awaitExit, type RunningChild, spawnChild } from "../exec/Command.js"
import type { HermesVenv } from "../venv/HermesVenv.js"
import type { FakeClock } from "./FakeClock.js"
import { gatewayEnv } from "./gatewayEnv.js"
import type { HermesHome } from "./hermesHome.js"
import { type LaunchedGateway, launchedGateway, logTail, type Progress } from "./Launcher.js"
import { groupAlive, killGroup, trackGroup, untrackGroup } from "./processGroups.js"
import { waitHealthy } from "./waitHealthy.js"

export type ProcessLaunchOptions = {
  readonly venv: HermesVenv
  readonly home: HermesHome
  readonly clock?: { readonly clock: FakeClock; readonly lib: string }
  readonly readyTimeoutMs?: number
  readonly progress?: Progress
  /** Closing the scope SIGKILLs the gateway instead of Hermes' planned stop. */
  readonly killOnRelease?: boolean
}

/** The gateway's environment for a venv on this host. */
export const processEnv = (o: ProcessLaunchOptions): Record<string, string> =>
  gatewayEnv({ venvBin: `${o.venv.dir}/bin`, home: o.home, ...(o.clock ? { clock: o.clock } : {}) })

/**
 * Runs hermes through a two-line Python shim that asks the kernel to SIGKILL it when its parent
 * (this Node process) dies (prctl PR_SET_PDEATHSIG), then execs the real CLI. Without it, a
 * runner killed with SIGKILL (a CI timeout, `kill -9` of `up`) leaves the gateway running.
 */
const PDEATHSIG_SHIM = [
  "import ctypes, os, signal, sys",
  "ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)",
  "if os.getppid() != int(sys.argv[1]): sys.exit(70)",
  "os.execv(sys.argv[2], sys.argv[2:])"
].join("\n")

const spawnGateway = (o: ProcessLaunchOptions): RunningChild =>
  execa(o.venv.python, ["-c", PDEATHSIG_SHIM, String(process.pid), o.venv.hermes, "gateway", "run", "--replace", "-v"], {
    cwd: o.home.workDir,
    env: processEnv(o),
    extendEnv: false,
    detached: true,
    stdin: "ignore",
    // Both streams append to one log (O_APPEND keeps their lines whole).
    stdout: { file: o.home.logFile, append: true },
    stderr: { file: o.home.logFile, append: true },
    reject: false,
    cleanup: false
  })

/** One started gateway process: its group, and why it exited once it has. */
interface RunningGateway {
  readonly child: RunningChild
  readonly pgid: number | null
  exitInfo: string | null
}

/** SIGKILL to the whole group, then wait until the child and anything it started are gone. */
const killGroupAndWait = (r: RunningGateway) =>
  Effect.gen(function*() {
    if (r.pgid === null) return
    killGroup(r.pgid, "SIGKILL")
    yield* awaitExit(r.child, 10_000)
    // children of the gateway (if any) share the group; make sure none survive
    for (let i = 0; i < 50 && groupAlive(r.pgid); i++) yield* Effect.sleep(Duration.millis(100))
    untrackGroup(r.pgid)
  })

/** The gateway process as a scoped resource: released = killed. */
const runningGateway = (o: ProcessLaunchOptions) =>
  Effect.acquireRelease(
    Effect.map(spawnChild(() => spawnGateway(o)), (child): RunningGateway => {
      const running: RunningGateway = { child, pgid: child.pid ?? null, exitInfo: null }
      if (running.pgid !== null) trackGroup(running.pgid)
      void child.then((r) => {
        running.exitInfo = `gateway exited (code ${String(r.exitCode)}, signal ${String(r.signal)})`
      })
      return running
    }),
    killGroupAndWait
  )

export const launchProcess = (o: ProcessLaunchOptions): Effect.Effect<LaunchedGateway, GatewayStartFailed, Scope.Scope | FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const baseUrl = `http://127.0.0.1:${o.home.port}`
    const progress = o.progress ?? (() => {})
    // what runs now; replacing it releases (kills) the previous one
    const current = yield* ScopedRef.make((): RunningGateway | null => null)
    let pgid: number | null = null
    const set = (next: Effect.Effect<RunningGateway | null, never, Scope.Scope>) =>
      Effect.tap(ScopedRef.set(current, next).pipe(Effect.zipRight(ScopedRef.get(current))), (r) => {
        pgid = r?.pgid ?? null
      })
    const kill = set(Effect.succeed(null)).pipe(Effect.asVoid)

    const start = Effect.gen(function*() {
      const running = yield* set(runningGateway(o))
      const health = yield* waitHealthy(baseUrl, { timeoutMs: o.readyTimeoutMs ?? 120_000, exited: () => running?.exitInfo ?? null })
      if (!health.ok) {
        yield* kill
        const tail = yield* Effect.provideService(logTail(o.home.logFile), FileSystem.FileSystem, fs)
        return yield* new GatewayStartFailed({ reason: health.reason, logFile: o.home.logFile, logTail: tail })
      }
      progress(`gateway ready at ${baseUrl}`)
    })

    const stopGracefully = Effect.gen(function*() {
      const running = yield* ScopedRef.get(current)
      if (running === null || running.pgid === null) return
      // SIGINT is Hermes' planned stop (exit 0); SIGTERM would log a signal-initiated shutdown
      killGroup(running.pgid, "SIGINT")
      if (!(yield* awaitExit(running.child, 20_000))) progress("gateway ignored SIGINT for 20 s; killing")
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
