/**
 * The run state of one emulated gateway process: run statuses, SSE buffers and who subscribed to
 * them, live runs (their interrupt, pending approvals, steer text), keyed runs' last ledger
 * status, and the sweep's cadence. Upstream keeps all of it in the process' memory; here it is
 * kept in private fields of the process' ProcessRuns, which the `Runs` service (Runs.ts) hands
 * out (a restart's new process gets a new one), and every run route acts through the methods
 * below — look up, write a status, stop, approve, steer, subscribe to events, sweep. Nothing
 * outside `runs/` reaches the maps (test/architecture.test.ts checks it).
 */
import { Deferred, Effect, type Fiber, Queue } from "effect"
import { Interrupt } from "../../agent/Interrupt.js"
import type { GatewayState } from "../../services/GatewayProcess.js"
import { Storage } from "../../services/Storage.js"
import { type RunEvent, runEvent } from "./RunEvents.js"
import { isTerminal, ledger, PERSISTED_FIELDS } from "./RunLedger.js"
import { type RunRecord, type RunStatus, setRunStatus } from "./RunRecord.js"
import { saveSettledNow } from "./SettledRuns.js"
import { streamExpired, statusExpired, SWEEP_INTERVAL_SECONDS, sweepDue, type SweepRun } from "./Sweep.js"

/**
 * A run's event buffer (null ends it). Most runs are never subscribed to, yet upstream keeps
 * their buffers for 300 s: the events wait in a plain array, and the Queue a subscriber takes from
 * is made, holding them, only when first asked for (a Queue per run cost more retained memory, and
 * so garbage collection, than the events themselves: 2,155 bytes a run instead of 926).
 */
export class RunStream {
  #buffered: Array<RunEvent | null> = []
  #queue: Queue.Queue<RunEvent | null> | undefined
  constructor(readonly createdAt: number) {}

  /** Appends an event; never waits (the buffer is unbounded). */
  offer(event: RunEvent | null): void {
    if (this.#queue === undefined) this.#buffered.push(event)
    else this.#queue.unsafeOffer(event)
  }

  get queue(): Queue.Queue<RunEvent | null> {
    if (this.#queue === undefined) {
      const queue = Effect.runSync(Queue.unbounded<RunEvent | null>())
      for (const event of this.#buffered) queue.unsafeOffer(event)
      this.#buffered = []
      this.#queue = queue
    }
    return this.#queue
  }
}

export interface PendingApproval {
  readonly request: Record<string, unknown>
  readonly answer: Deferred.Deferred<string>
}

export interface LiveRun {
  readonly runId: string
  /** Signals the agent to stop (Hermes' agent.interrupt / hard_interrupt). */
  readonly interrupt: Interrupt
  fiber: Fiber.RuntimeFiber<void> | undefined
  /** The agent exists once the turn starts; before that only the task is live. */
  agentStarted: boolean
  /** A stop was requested: whatever the turn ends with, the run settles as cancelled. */
  stopping: boolean
  readonly approvals: Array<PendingApproval>
  readonly steers: Array<string>
}

/** What answering a run's pending approval did. */
export type ApprovalOutcome =
  | { readonly _tag: "notActive" }
  | { readonly _tag: "nothingPending" }
  | { readonly _tag: "resolved"; readonly resolved: number }

export class ProcessRuns {
  readonly #statuses = new Map<string, RunRecord>()
  readonly #streams = new Map<string, RunStream>()
  readonly #subscribed = new Set<string>()
  readonly #live = new Map<string, LiveRun>()
  /** 0.21.0: keyed runs of this process -> the status last written to the ledger. */
  readonly #keyed = new Map<string, string>()
  /** Loop time the sweep's timer ends at (the sweeper first wakes 60 s after the process started). */
  #sweepDeadlineLoop: number
  /** Sweeps run so far; a settled status is stamped with it, so only later sweeps judge it. */
  #sweeps = 0
  /** Sweeps whose deletion of settled statuses in Storage has not finished (reads apply them). */
  readonly #pendingSweeps: Array<SweepRun> = []

  constructor(readonly process: GatewayState) {
    this.#sweepDeadlineLoop = process.startedLoop + SWEEP_INTERVAL_SECONDS
  }

  /** Sweeps that a read of a settled status must still apply itself. */
  get pendingSweeps(): ReadonlyArray<SweepRun> {
    return this.#pendingSweeps
  }

  /** Sweeps run so far in this process (what a settled status saved now is stamped with). */
  get sweepCount(): number {
    return this.#sweeps
  }

  /** The sweep's deletion in Storage finished: reads no longer need to apply it. */
  sweepDeleted(sweep: SweepRun): void {
    const i = this.#pendingSweeps.indexOf(sweep)
    if (i >= 0) this.#pendingSweeps.splice(i, 1)
  }

  /** The status in live memory (not a settled one, which lives in runs/SettledRuns). */
  status(runId: string): RunRecord | undefined {
    return this.#statuses.get(runId)
  }

  /** How many statuses live memory holds, and how many runs have a live task (for /__admin/state). */
  get statusCount(): number {
    return this.#statuses.size
  }

  get liveCount(): number {
    return this.#live.size
  }

  /** Statuses in live memory whose status is one of `statuses` (readiness' active API runs). */
  countStatuses(statuses: ReadonlySet<string>): number {
    let n = 0
    for (const record of this.#statuses.values()) if (statuses.has(String(record["status"]))) n++
    return n
  }

  /**
   * The periodic sweep, when due on the loop clock (see Sweep.ts): drops unsubscribed buffers and
   * old statuses judged by wall time now; the sweep when it ran, so the caller sweeps Storage's
   * settled statuses too (`sweepSettled`), until then applied by every read.
   */
  sweepIfDue(wallNow: number, loopNow: number): SweepRun | undefined {
    if (!sweepDue(this.#sweepDeadlineLoop, loopNow)) return undefined
    this.#sweepDeadlineLoop = loopNow + SWEEP_INTERVAL_SECONDS
    for (const [runId, stream] of this.#streams) {
      if (streamExpired(stream.createdAt, wallNow) && !this.#subscribed.has(runId)) this.#streams.delete(runId)
    }
    for (const [runId, record] of this.#statuses) if (statusExpired(record, wallNow)) this.#statuses.delete(runId)
    const sweep: SweepRun = { seq: ++this.#sweeps, wall: wallNow }
    this.#pendingSweeps.push(sweep)
    return sweep
  }

  /**
   * Every status change (upstream's `_set_run_status`): the in-memory status, and for keyed runs
   * (0.21.0) the ledger row, written when the status changed, when it is terminal, or when a
   * persisted field (output, error, usage, ...) came with it — progress-only updates stay in
   * memory, as upstream. A terminal status leaves live memory for the settled-runs table.
   */
  writeStatus(namespace: string, runId: string, status: RunStatus, now: number, fields: Record<string, unknown> = {}) {
    return Effect.suspend(() => {
      const record = setRunStatus(this.#statuses, runId, status, now, fields)
      const persisted = this.#keyed.get(runId)
      const due = persisted !== undefined &&
        (persisted !== status || isTerminal(status) || PERSISTED_FIELDS.some((f) => f in fields))
      if (due) this.#keyed.set(runId, status)
      const terminal = isTerminal(status)
      if (!due && !terminal) return Effect.void
      return Effect.flatMap(Storage, (storage) => {
        // a single statement commits on its own: no BEGIN/COMMIT around it
        if (!terminal) return storage.use(() => ledger(storage, namespace).persistStatus(runId, record, now))
        const settle = () => {
          if (due) ledger(storage, namespace).persistStatus(runId, record, now)
          saveSettledNow(storage, namespace, runId, record, this.#sweeps)
          if (this.#statuses.get(runId) === record) this.#statuses.delete(runId)
          this.#keyed.delete(runId)
        }
        // a keyed run's terminal status is one commit for the ledger row and the settled status
        return due ? storage.transaction(settle) : storage.use(settle)
      })
    })
  }

  /** `_put_event_if_active`: queued only while the run still owns its transport buffer. */
  publish(runId: string, event: RunEvent | null): Effect.Effect<void> {
    return Effect.sync(() => this.#offer(runId, event))
  }

  #offer(runId: string, event: RunEvent | null): void {
    this.#streams.get(runId)?.offer(event)
  }

  hasStream(runId: string): boolean {
    return this.#streams.has(runId)
  }

  /**
   * A new run enters memory — status, event buffer, live run (keyed runs tracked for the ledger) —
   * and counts as the process' background agent work until it leaves.
   */
  enter(runId: string, record: RunRecord, keyed: boolean, now: number): Effect.Effect<LiveRun> {
    return Effect.sync(() => {
      const live: LiveRun = {
        runId,
        interrupt: new Interrupt(),
        fiber: undefined,
        agentStarted: false,
        stopping: false,
        approvals: [],
        steers: []
      }
      this.#streams.set(runId, new RunStream(now))
      this.#statuses.set(runId, record)
      if (keyed) this.#keyed.set(runId, "queued")
      this.#live.set(runId, live)
      this.process.backgroundAgentWork += 1
      return live
    })
  }

  /**
   * The run's background task: the process interrupts it on a restart. However it ends (done,
   * failed, interrupted), its buffer ends (`_run_and_close`'s finally) and the run leaves live
   * memory. An observer of the fiber rather than `Effect.ensuring`: see docs/performance.md,
   * "What a request leaves behind" (ensuring kept every finished run in memory until a full
   * collection).
   */
  attach(live: LiveRun, fiber: Fiber.RuntimeFiber<void>): void {
    fiber.addObserver(() => {
      this.#offer(live.runId, null)
      this.leave(live)
    })
    if (this.#live.get(live.runId) !== live) return
    live.fiber = fiber
    this.process.backgroundTasks.add(fiber)
  }

  /** The run's task ended, however: it is no longer live. */
  leave(live: LiveRun): void {
    if (this.#live.get(live.runId) !== live) return
    this.#live.delete(live.runId)
    if (live.fiber !== undefined) this.process.backgroundTasks.delete(live.fiber)
    this.process.backgroundAgentWork = Math.max(0, this.process.backgroundAgentWork - 1)
  }

  /** POST .../stop on a live run: it settles as cancelled; a started agent is interrupted. False when no task is live. */
  stop(namespace: string, runId: string, now: number): Effect.Effect<boolean, never, Storage> {
    return Effect.suspend(() => {
      const live = this.#live.get(runId)
      if (live === undefined) return Effect.succeed(false)
      return this.writeStatus(namespace, runId, "stopping", now, { last_event: "run.stopping" }).pipe(
        Effect.zipRight(Effect.suspend(() => {
          live.stopping = true
          return live.agentStarted ? live.interrupt.set : Effect.void
        })),
        Effect.as(true)
      )
    })
  }

  /**
   * POST .../approval: the oldest pending approval (or all of them) answered with `choice`. The
   * run's approval session lives exactly as long as its task.
   */
  approve(namespace: string, runId: string, choice: string, all: boolean, now: number): Effect.Effect<ApprovalOutcome, never, Storage> {
    return Effect.suspend((): Effect.Effect<ApprovalOutcome, never, Storage> => {
      const live = this.#live.get(runId)
      if (live === undefined) return Effect.succeed({ _tag: "notActive" })
      const pending = all ? live.approvals.splice(0) : live.approvals.splice(0, 1)
      if (pending.length === 0) return Effect.succeed({ _tag: "nothingPending" })
      return Effect.forEach(pending, (p) => Deferred.succeed(p.answer, choice), { discard: true }).pipe(
        Effect.zipRight(this.writeStatus(namespace, runId, "running", now, { last_event: "approval.responded" })),
        Effect.zipRight(this.publish(runId, runEvent("approval.responded", runId, now, { choice, resolved: pending.length }))),
        Effect.as({ _tag: "resolved", resolved: pending.length })
      )
    })
  }

  /** POST .../steer: queued for a running agent; false when the run is not accepting steer input. */
  steer(runId: string, text: string, now: number): Effect.Effect<boolean> {
    return Effect.suspend(() => {
      const live = this.#live.get(runId)
      if (live === undefined || !live.agentStarted) return Effect.succeed(false)
      live.steers.push(text)
      return this.publish(runId, runEvent("run.steered", runId, now, { accepted: true })).pipe(Effect.as(true))
    })
  }

  /** GET .../events: the run's buffer, read once; a subscribed buffer is not swept. */
  subscribe(runId: string): RunStream | undefined {
    const stream = this.#streams.get(runId)
    if (stream !== undefined) this.#subscribed.add(runId)
    return stream
  }

  /**
   * The subscriber is gone: upstream pops the buffer unconditionally (a second subscriber gets 404;
   * a run id's buffer is set once, so the one popped is always the one that was read).
   */
  unsubscribe(runId: string): void {
    this.#subscribed.delete(runId)
    this.#streams.delete(runId)
  }
}
