/**
 * A started fork server (forkServerProgram.ts) as a scoped resource: the server preloads once and
 * forks one `hermes gateway run` per `fork` call. Its release closes the server's stdin and kills
 * its process group; the children it forked die with it (PR_SET_PDEATHSIG) and are each killed by
 * their own launcher's release first (ForkLauncher.ts).
 */
import { createInterface } from "node:readline"
import { Data, Effect, Queue, type Scope } from "effect"
import { execa } from "execa"
import { GatewayStartFailed } from "../errors.js"
import type { HermesVenv } from "../venv/HermesVenv.js"
import { FORK_SERVER_PROGRAM } from "./forkServerProgram.js"
import { groupAlive, killGroup, trackGroup, untrackGroup } from "./processGroups.js"

export interface ForkRequest {
  readonly env: Record<string, string>
  readonly cwd: string
  readonly log: string
}

export interface ForkServer {
  /** Forks one gateway; its pid, which is also its process group id. */
  readonly fork: (request: ForkRequest) => Effect.Effect<number, GatewayStartFailed>
  /** How many modules the server holds loaded (sys.modules). */
  readonly preloaded: number
  /** The server's pid (its process group), and the directory it runs in. */
  readonly pid: number | undefined
  readonly cwd: string
}

class ForkServerLine extends Data.TaggedClass("ForkServerLine")<{ readonly line: string }> {}

const failed = (reason: string, logFile: string) => new GatewayStartFailed({ reason: `fork server: ${reason}`, logFile, logTail: "" })

/**
 * Starts a server in the venv with `env` (the gateways' environment less what each child gets of
 * its own; LD_PRELOAD must be in it: a preload cannot be added after a process starts).
 */
export const scopedForkServer = (venv: HermesVenv, env: Record<string, string>, cwd: string, readyTimeoutMs = 120_000): Effect.Effect<ForkServer, GatewayStartFailed, Scope.Scope> =>
  Effect.gen(function*() {
    const lines = yield* Queue.unbounded<ForkServerLine>()
    const child = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const c = execa(venv.python, ["-c", FORK_SERVER_PROGRAM, String(process.pid), venv.hermes], {
          cwd,
          env,
          extendEnv: false,
          detached: true,
          stdin: "pipe",
          stdout: "pipe",
          stderr: "ignore",
          reject: false,
          cleanup: false,
          buffer: false
        })
        if (c.pid !== undefined) trackGroup(c.pid)
        createInterface({ input: c.stdout }).on("line", (line) => Queue.unsafeOffer(lines, new ForkServerLine({ line })))
        c.stdout.on("close", () => Queue.unsafeOffer(lines, new ForkServerLine({ line: JSON.stringify({ error: "the fork server exited" }) })))
        return c
      }),
      (c) =>
        Effect.gen(function*() {
          c.stdin.end()
          if (c.pid === undefined) return
          killGroup(c.pid, "SIGKILL")
          yield* Effect.promise(() => Promise.resolve(c).then(() => undefined))
          for (let i = 0; i < 50 && groupAlive(c.pid); i++) yield* Effect.sleep("100 millis")
          untrackGroup(c.pid)
        })
    )
    const next = (timeoutMs: number) =>
      Queue.take(lines).pipe(
        Effect.map((l): { ready?: number; pid?: number; error?: string } => {
          try {
            return JSON.parse(l.line) as { ready?: number; pid?: number; error?: string }
          } catch {
            return { error: `unexpected output: ${l.line.slice(0, 200)}` }
          }
        }),
        Effect.timeoutFail({ duration: timeoutMs, onTimeout: () => failed(`no answer within ${timeoutMs} ms`, "(fork server)") })
      )
    const hello = yield* next(readyTimeoutMs)
    if (hello.ready === undefined) return yield* Effect.fail(failed(hello.error ?? "did not start", "(fork server)"))
    // one request at a time: answers come in order
    const lock = yield* Effect.makeSemaphore(1)
    const fork = (request: ForkRequest) =>
      lock.withPermits(1)(
        Effect.gen(function*() {
          child.stdin.write(`${JSON.stringify(request)}\n`)
          const answer = yield* next(10_000)
          if (answer.pid === undefined) return yield* Effect.fail(failed(answer.error ?? "no pid", request.log))
          return answer.pid
        })
      )
    return { fork, preloaded: hello.ready, pid: child.pid, cwd }
  })
