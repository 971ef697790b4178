/**
 * One emulated gateway process per namespace: what it holds in memory besides its runs (admission
 * counters, draining, approval decisions, the sweep's cadence) and the background tasks it runs.
 * Upstream keeps exactly this in memory, so a restart (admin or a real process restart) drops it;
 * durable state lives in Storage. The runs of a process are owned by `runs/Runs.ts`, which keys
 * them by this object: a restart (a new GatewayState) starts with no runs, and its background
 * tasks are interrupted here. This file sits below every feature folder and imports none.
 */
import { Context, Effect, Fiber } from "effect"
import { nodeCrypto } from "./NodeCrypto.js"

export class GatewayState {
  /** Background agent tasks of this process (the runs' `_run_and_close`); a restart interrupts them. */
  readonly backgroundTasks = new Set<Fiber.RuntimeFiber<void>>()
  /** Background tasks admitted and not ended yet (counted from admission, before their fiber exists). */
  backgroundAgentWork = 0
  /** Admitted requests before they reach agent bookkeeping, and non-run agent turns in flight. */
  pendingAgentRequests = 0
  inflightAgentRuns = 0
  draining = false
  /**
   * `active_agents` as the process last wrote it to its runtime status: on lifecycle transitions
   * (start: 0; entering and leaving a drain: the active work then), and every second while draining.
   */
  persistedActiveAgents = 0
  /** Approval-guard decisions "session" (per approval session) and "always" (kept across restarts, as config.yaml keeps them). */
  readonly sessionApprovals = new Map<string, Set<string>>()
  readonly permanentApprovals = new Set<string>()
  /** Loop time of the cron ticker's last tick (it ticks once as the process starts). */
  lastCronTickLoop: number
  /**
   * `startedAt` is wall time, `startedLoop` loop time (services/Clock.ts); `owner` identifies
   * this emulated process in the ledger (a boot id plus the restart count).
   */
  constructor(readonly startedAt: number, readonly startedLoop: number, readonly generation: number, readonly owner: string) {
    this.lastCronTickLoop = startedLoop
  }

  activeAgentWorkCount(): number {
    return this.pendingAgentRequests + this.inflightAgentRuns + this.backgroundAgentWork
  }

  /**
   * An in-request agent turn (`_run_agent`) starts counting against the concurrency cap; the
   * function returned stops counting it when the turn ends, however often it is called.
   */
  #beginAgentTurn(): () => void {
    this.inflightAgentRuns += 1
    let counted = true
    return () => {
      if (!counted) return
      counted = false
      this.inflightAgentRuns = Math.max(0, this.inflightAgentRuns - 1)
    }
  }

  /**
   * Counts `turn` as in-flight agent work while it plays, however it ends: the count drops as the
   * turn succeeds or fails, or, when it is interrupted (which skips those handlers), as its fiber
   * ends. Not `Effect.ensuring`, which keeps the whole turn in memory until a full collection
   * (docs/performance.md, "What a request leaves behind").
   */
  agentTurnInFlight<A, E, R>(turn: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> {
    return Effect.withFiberRuntime<A, E, R>((fiber) => {
      const end = this.#beginAgentTurn()
      fiber.addObserver(end)
      return Effect.matchCauseEffect(turn, {
        onFailure: (cause) => {
          end()
          return Effect.failCause(cause)
        },
        onSuccess: (value) => {
          end()
          return Effect.succeed(value)
        }
      })
    })
  }
}

export interface GatewaysShape {
  readonly get: (namespace: string) => GatewayState
  /** Ends the emulated process: live runs are interrupted, memory is dropped. */
  readonly restart: (namespace: string) => Effect.Effect<GatewayState>
  readonly shutdown: Effect.Effect<void>
}

export class Gateways extends Context.Tag("hermetic/Gateways")<Gateways, GatewaysShape>() {}

/** The two clocks a process is started on (services/Clock.ts). */
export interface ProcessClocks {
  readonly now: (namespace: string) => number
  readonly loop: (namespace: string) => number
}

export const makeGateways = (clocks: ProcessClocks): GatewaysShape => {
  const states = new Map<string, GatewayState>()
  // A new id per OS process: a process restart on the same data dir sees the old owners as dead.
  // (made with the first namespace's state, not at start: services/NodeCrypto.ts says why)
  let bootId: string | undefined
  const boot = () => (bootId ??= nodeCrypto().randomBytes(8).toString("hex"))
  const get = (ns: string): GatewayState => {
    let s = states.get(ns)
    if (s === undefined) {
      s = new GatewayState(clocks.now(ns), clocks.loop(ns), 0, `${boot()}:0`)
      states.set(ns, s)
    }
    return s
  }
  const stop = (s: GatewayState) =>
    Effect.forEach(
      [...s.backgroundTasks],
      (f) => Fiber.interrupt(f),
      { discard: true, concurrency: "unbounded" }
    )
  return {
    get,
    restart: (ns) =>
      Effect.suspend(() => {
        const old = get(ns)
        const next = new GatewayState(clocks.now(ns), clocks.loop(ns), old.generation + 1, `${boot()}:${old.generation + 1}`)
        for (const key of old.permanentApprovals) next.permanentApprovals.add(key)
        states.set(ns, next)
        return Effect.as(stop(old), next)
      }),
    shutdown: Effect.suspend(() => Effect.forEach([...states.values()], stop, { discard: true }))
  }
}

/** The gateways of every namespace, shut down with the scope. */
export const acquireGateways = (clocks: ProcessClocks) =>
  Effect.acquireRelease(Effect.sync(() => makeGateways(clocks)), (g) => g.shutdown)

