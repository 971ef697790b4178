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
import { RUN_STATUS_TTL_SECONDS } from "./Sweep.js"
import { Storage, type StorageShape } from "../../services/Storage.js"
import { pyDumps, pyJsonLoads, toHandlerValue } from "../../python/index.js"

export const SETTLED_RUNS_SCHEMA: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS settled_runs (
     namespace TEXT NOT NULL,
     run_id TEXT NOT NULL,
     status TEXT NOT NULL,
     updated_at REAL NOT NULL,
     body TEXT NOT NULL,
     PRIMARY KEY (namespace, run_id)
   )`,
  `CREATE INDEX IF NOT EXISTS settled_runs_expiry ON settled_runs (namespace, status, updated_at)`,
  // process memory does not survive the process: a new emulator process starts with none
  `DELETE FROM settled_runs`
]

export interface SettledRun {
  readonly status: string
  /** The status exactly as GET answers it (Python json.dumps text). */
  readonly body: string
}

const SAVE_SETTLED = `INSERT OR REPLACE INTO settled_runs (namespace, run_id, status, updated_at, body) VALUES (?, ?, ?, ?, ?)`

/** Stores a settled status; run inside `storage.use`. */
export const saveSettledNow = (storage: StorageShape, namespace: string, runId: string, record: RunRecord): void =>
  void storage.statement(SAVE_SETTLED).run(namespace, runId, String(record["status"]), recordUpdatedAt(record), pyDumps(record))

const LOAD_SETTLED = `SELECT status, body FROM settled_runs WHERE namespace = ? AND run_id = ?
  AND NOT (status IN ('completed', 'failed', 'cancelled') AND updated_at < ?)`

/** The settled status, unless the sweep at `sweptAt` (the last one) dropped it. */
export const loadSettled = (storage: StorageShape, namespace: string, runId: string, sweptAt: number): Effect.Effect<SettledRun | undefined> =>
  storage.use(() => storage.statement(LOAD_SETTLED).get(namespace, runId, sweptAt - RUN_STATUS_TTL_SECONDS) as SettledRun | undefined)

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
 * so that a million expired rows never hold the process for seconds; reads already hide expired
 * rows (they compare against the sweep's time), so the sweep is only disk hygiene and runs in the
 * background of the request that found it due.
 */
export const sweepSettled = (namespace: string, now: number) =>
  sweepSettledBatches(namespace, now).pipe(Effect.forkDaemon, Effect.asVoid)

/** The sweep itself, slice after slice until nothing expired is left (the bench times this). */
export const sweepSettledBatches = (namespace: string, now: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    const slice = sql`DELETE FROM settled_runs WHERE rowid IN (
        SELECT rowid FROM settled_runs WHERE namespace = ${namespace}
          AND status IN ('completed', 'failed', 'cancelled') AND updated_at < ${now - RUN_STATUS_TTL_SECONDS}
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
