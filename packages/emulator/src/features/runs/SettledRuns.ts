/**
 * Statuses of settled runs (completed, failed, cancelled, interrupted). Upstream keeps them in
 * process memory for an hour; the emulator keeps them in a Storage table marked volatile instead —
 * dropped on a restart and on every process start, exactly like process memory — so that a
 * million settled runs cost disk, not RSS. Live runs stay in process memory (runs/Runs). The status is stored
 * as the bytes GET /v1/runs/{id} answers with, so a poll needs no re-encoding.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { type RunRecord, recordUpdatedAt, SWEPT_STATUSES } from "./RunRecord.js"
import { RUN_STATUS_TTL_SECONDS, type SweepRun } from "./Sweep.js"
import { Storage, type StorageShape } from "../../services/Storage.js"
import { pyDumps, pyJsonLoads, toHandlerValue } from "../../python/index.js"

export const SETTLED_RUNS_SCHEMA: ReadonlyArray<string> = [
  // process memory does not survive the process: a new emulator process starts with none (and so
  // the table can be made anew, in whatever shape an older data dir left it)
  `DROP TABLE IF EXISTS settled_runs`,
  `CREATE TABLE settled_runs (
     namespace TEXT NOT NULL,
     run_id TEXT NOT NULL,
     status TEXT NOT NULL,
     updated_at REAL NOT NULL,
     body TEXT NOT NULL,
     -- sweeps the process had run when the status was saved: only later sweeps judge it
     saved_after INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (namespace, run_id)
   )`,
  `CREATE INDEX settled_runs_expiry ON settled_runs (namespace, status, updated_at)`
]

export interface SettledRun {
  readonly status: string
  /** The status exactly as GET answers it (Python json.dumps text). */
  readonly body: string
  readonly updated_at: number
  readonly saved_after: number
}

const SAVE_SETTLED = `INSERT OR REPLACE INTO settled_runs (namespace, run_id, status, updated_at, body, saved_after) VALUES (?, ?, ?, ?, ?, ?)`

/** Stores a settled status, after `sweepsSoFar` sweeps of its process; run inside `storage.use`. */
export const saveSettledNow = (storage: StorageShape, namespace: string, runId: string, record: RunRecord, sweepsSoFar: number): void =>
  void storage.statement(SAVE_SETTLED).run(namespace, runId, String(record["status"]), recordUpdatedAt(record), pyDumps(record), sweepsSoFar)

const LOAD_SETTLED = `SELECT status, body, updated_at, saved_after FROM settled_runs WHERE namespace = ? AND run_id = ?`

/** Whether `sweep` dropped the settled status: it ran after the status was saved and found it over an hour old by its wall time. */
export const sweptBy = (run: SettledRun, sweep: SweepRun): boolean =>
  run.saved_after < sweep.seq && SWEPT_STATUSES.has(run.status) && sweep.wall - run.updated_at > RUN_STATUS_TTL_SECONDS

/** The settled status, unless a sweep whose deletion is still under way (`pending`) dropped it. */
export const loadSettled = (storage: StorageShape, namespace: string, runId: string, pending: ReadonlyArray<SweepRun>): Effect.Effect<SettledRun | undefined> =>
  storage.use(() => {
    const run = storage.statement(LOAD_SETTLED).get(namespace, runId) as SettledRun | undefined
    return run === undefined || pending.some((sweep) => sweptBy(run, sweep)) ? undefined : run
  })

export const decodeSettled = (run: SettledRun): RunRecord => {
  const parsed = pyJsonLoads(run.body)
  return parsed._tag === "Left" ? {} : (toHandlerValue(parsed.right) as RunRecord)
}

/** Rows one slice of the sweep deletes: about a millisecond of the single connection. */
const SWEEP_SLICE_ROWS = 500

/**
 * Gives the event loop a turn (sockets, timers) before the next slice. `Effect.yieldNow` would
 * not: Effect's scheduler resumes a yielded fiber on a microtask for up to 2,048 yields in a row,
 * so a million expired rows once ran as ~10 s of slices with no request answered in between.
 */
const yieldToEventLoop = Effect.async<void>((resume) => {
  const turn = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(turn))
})

/**
 * The periodic sweep's effect on settled statuses, in slices that each give the event loop a turn,
 * so that a million expired rows never hold the process for seconds; reads apply the sweep until
 * its deletion is done (`loadSettled`), so the deletion runs in the background of the request that
 * found the sweep due, and `done` tells the process it finished.
 */
export const sweepSettled = (namespace: string, sweep: SweepRun, done: (sweep: SweepRun) => void) =>
  sweepSettledBatches(namespace, sweep).pipe(Effect.ensuring(Effect.sync(() => done(sweep))), Effect.forkDaemon, Effect.asVoid)

/** The sweep itself, slice after slice until nothing it drops is left (the bench times this). */
export const sweepSettledBatches = (namespace: string, sweep: SweepRun) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    const slice = sql`DELETE FROM settled_runs WHERE rowid IN (
        SELECT rowid FROM settled_runs WHERE namespace = ${namespace}
          AND status IN ('completed', 'failed', 'cancelled') AND updated_at < ${sweep.wall - RUN_STATUS_TTL_SECONDS}
          AND saved_after < ${sweep.seq}
        LIMIT ${SWEEP_SLICE_ROWS})`.raw
    const loop: Effect.Effect<void> = Effect.flatMap(Effect.orDie(slice), (result) =>
      (result as { readonly changes?: number }).changes === SWEEP_SLICE_ROWS ? Effect.zipRight(yieldToEventLoop, loop) : Effect.void)
    return loop
  })

/** A restart: the namespace's process memory is gone. */
export const clearSettled = (namespace: string) =>
  Effect.flatMap(Storage, (storage) =>
    storage.use(() => void storage.statement(`DELETE FROM settled_runs WHERE namespace = ?`).run(namespace)))

export const countSettled = (namespace: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<{ readonly n: number }>`SELECT COUNT(*) AS n FROM settled_runs WHERE namespace = ${namespace}`
  ).pipe(Effect.map((rows) => rows[0]?.n ?? 0), Effect.orDie)

export { SWEPT_STATUSES }
