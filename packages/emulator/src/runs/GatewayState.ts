/**
 * What one emulated gateway process holds in memory, per namespace: run statuses, SSE buffers,
 * live runs, approvals, admission counters. Upstream keeps exactly this in memory, so a restart
 * (admin or a real process restart) drops it; durable state lives in Storage.
 */
import { Context, Deferred, Effect, Fiber, Layer, Queue } from "effect"
import { randomBytes } from "node:crypto"
import type { RunEvent } from "./RunEvents.js"
import type { RunRecord } from "./RunRecord.js"

/**
 * A run's event buffer (null ends it). Most runs are never subscribed to, yet upstream keeps
 * their buffers for 300 s: the events wait in a plain array, and the Queue a subscriber takes from
 * is made, holding them, only when first asked for (a Queue per run cost more retained memory, and
 * so garbage collection, than the events themselves).
 */
export class RunStream {
  private buffered: Array<RunEvent | null> = []
  private made: Queue.Queue<RunEvent | null> | undefined
  constructor(readonly createdAt: number) {}

  /** Appends an event; never waits (the buffer is unbounded). */
  offer(event: RunEvent | null): Effect.Effect<void> {
    return Effect.sync(() => {
      if (this.made === undefined) this.buffered.push(event)
      else this.made.unsafeOffer(event)
    })
  }

  get queue(): Queue.Queue<RunEvent | null> {
    if (this.made === undefined) {
      const queue = Effect.runSync(Queue.unbounded<RunEvent | null>())
      for (const event of this.buffered) queue.unsafeOffer(event)
      this.buffered = []
      this.made = queue
    }
    return this.made
  }
}

export interface PendingApproval {
  readonly request: Record<string, unknown>
  readonly answer: Deferred.Deferred<string>
}

export interface LiveRun {
  readonly runId: string
  /** Signals the agent to stop (Hermes' agent.interrupt / hard_interrupt). */
  readonly interrupt: Deferred.Deferred<void>
  fiber: Fiber.RuntimeFiber<void> | undefined
  /** The agent exists once the turn starts; before that only the task is live. */
  agentStarted: boolean
  /** A stop was requested: whatever the turn ends with, the run settles as cancelled. */
  stopping: boolean
  readonly approvals: Array<PendingApproval>
  readonly steers: Array<string>
}

export class GatewayState {
  readonly runStatuses = new Map<string, RunRecord>()
  readonly runStreams = new Map<string, RunStream>()
  readonly streamSubscribers = new Set<string>()
  readonly liveRuns = new Map<string, LiveRun>()
  /** 0.21.0: keyed runs of this process -> the status last written to the ledger. */
  readonly keyedRuns = new Map<string, string>()
  /** Admitted requests before they reach agent bookkeeping, and non-run agent turns in flight. */
  pendingAgentRequests = 0
  inflightAgentRuns = 0
  draining = false
  /** Approval-guard decisions "session" (per approval session) and "always" (kept across restarts, as config.yaml keeps them). */
  readonly sessionApprovals = new Map<string, Set<string>>()
  readonly permanentApprovals = new Set<string>()
  /** Emulated time of the last sweep of run statuses and buffers (the process start before the first). */
  lastSweepAt: number
  /** `owner` identifies this emulated process in the ledger (a boot id plus the restart count). */
  constructor(readonly startedAt: number, readonly generation: number, readonly owner: string) {
    // upstream's sweeper first wakes 60 s after the process started
    this.lastSweepAt = startedAt
  }

  activeAgentWorkCount(): number {
    return this.pendingAgentRequests + this.inflightAgentRuns + this.liveRuns.size
  }

  /** An in-request agent turn (`_run_agent`) starts counting against the concurrency cap. */
  beginAgentTurn(): void {
    this.inflightAgentRuns += 1
  }

  /** ...and stops counting when it ends, however it ends. */
  readonly endAgentTurn: Effect.Effect<void> = Effect.sync(() => {
    this.inflightAgentRuns = Math.max(0, this.inflightAgentRuns - 1)
  })

  /** Counts `turn` as in-flight agent work while it plays. */
  agentTurnInFlight<A, E, R>(turn: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> {
    return Effect.suspend(() => {
      this.beginAgentTurn()
      return Effect.ensuring(turn, this.endAgentTurn)
    })
  }
}

export interface GatewaysShape {
  readonly get: (namespace: string) => GatewayState
  /** Ends the emulated process: live runs are interrupted, memory is dropped. */
  readonly restart: (namespace: string) => Effect.Effect<GatewayState>
  readonly namespaces: () => ReadonlyArray<string>
  readonly shutdown: Effect.Effect<void>
}

export class Gateways extends Context.Tag("hermetic/Gateways")<Gateways, GatewaysShape>() {}

export const makeGateways = (now: (namespace: string) => number): GatewaysShape => {
  const states = new Map<string, GatewayState>()
  // A new id per OS process: a process restart on the same data dir sees the old owners as dead.
  const bootId = randomBytes(8).toString("hex")
  const get = (ns: string): GatewayState => {
    let s = states.get(ns)
    if (s === undefined) {
      s = new GatewayState(now(ns), 0, `${bootId}:0`)
      states.set(ns, s)
    }
    return s
  }
  const stop = (s: GatewayState) =>
    Effect.forEach(
      [...s.liveRuns.values()].flatMap((r) => (r.fiber === undefined ? [] : [r.fiber])),
      (f) => Fiber.interrupt(f),
      { discard: true, concurrency: "unbounded" }
    )
  return {
    get,
    restart: (ns) =>
      Effect.gen(function*() {
        const old = get(ns)
        const next = new GatewayState(now(ns), old.generation + 1, `${bootId}:${old.generation + 1}`)
        for (const key of old.permanentApprovals) next.permanentApprovals.add(key)
        states.set(ns, next)
        yield* stop(old)
        return next
      }),
    namespaces: () => [...states.keys()],
    shutdown: Effect.suspend(() => Effect.forEach([...states.values()], stop, { discard: true }))
  }
}

export const GatewaysLive = (now: (namespace: string) => number) =>
  Layer.scoped(
    Gateways,
    Effect.acquireRelease(Effect.sync(() => makeGateways(now)), (g) => g.shutdown)
  )
