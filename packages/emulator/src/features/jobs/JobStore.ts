/**
 * Load and save a namespace's jobs (Python JSON values kept as they are: an int stays an int,
 * true stays a bool) and their execution records. Jobs are rows in list order; a create appends
 * one row and an update rewrites one, so neither costs more as jobs accumulate.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { isDict, pyDumps, pyJsonLoads, pyStr, toHandlerValue } from "../../python/index.js"
import { JOB_DUE_KEY } from "./JobTables.js"

export type Job = Record<string, unknown>

const parse = (text: string): unknown => {
  const parsed = pyJsonLoads(text)
  return parsed._tag === "Right" ? toHandlerValue(parsed.right) : null
}

const jobsOf = (rows: ReadonlyArray<{ readonly job_json: string }>): Array<Job> => rows.map((r) => parse(r.job_json)).filter(isDict)

/** The namespace's jobs, in list order. */
export const loadJobs = (ns: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly job_json: string }>`SELECT job_json FROM cron_jobs WHERE namespace = ${ns} ORDER BY seq`
  ).pipe(Effect.map(jobsOf), Effect.orDie)

/** The first job (in list order) whose id is `id`, as a list lookup by id finds it. */
export const loadJob = (ns: string, id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly job_json: string }>`SELECT job_json FROM cron_jobs WHERE namespace = ${ns} AND id = ${id} ORDER BY seq LIMIT 1`
  ).pipe(
    // the id column holds str(id): a job whose id is not that very string is not a match
    Effect.map((rows): Job | undefined => jobsOf(rows).find((j) => j["id"] === id)),
    Effect.orDie
  )

/** Appends a job at the end of the list. */
export const appendJob = (ns: string, job: Job) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`INSERT INTO cron_jobs (namespace, seq, id, job_json)
        VALUES (${ns}, (SELECT COALESCE(MAX(seq), 0) + 1 FROM cron_jobs WHERE namespace = ${ns}), ${pyStr(job["id"])}, ${pyDumps(job)})`
  ).pipe(Effect.asVoid, Effect.orDie)

/** Rewrites the first job with the job's id in place (its list position kept). */
export const saveJob = (ns: string, job: Job) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    const id = pyStr(job["id"])
    return sql`UPDATE cron_jobs SET job_json = ${pyDumps(job)} WHERE namespace = ${ns} AND seq =
                 (SELECT seq FROM cron_jobs WHERE namespace = ${ns} AND id = ${id} ORDER BY seq LIMIT 1)`
  }).pipe(Effect.asVoid, Effect.orDie)

/** Removes every job with this id. */
export const deleteJob = (ns: string, id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DELETE FROM cron_jobs WHERE namespace = ${ns} AND id = ${id}`).pipe(Effect.asVoid, Effect.orDie)

/** Replaces the whole list (a list operation that found its job by name rather than id). */
export const saveJobs = (ns: string, jobs: ReadonlyArray<Job>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    // no generator made per call (scripts/retention-lint.mjs says why)
    sql.withTransaction(
      Effect.zipRight(
        sql`DELETE FROM cron_jobs WHERE namespace = ${ns}`,
        Effect.forEach(jobs, (job, i) => sql`INSERT INTO cron_jobs (namespace, seq, id, job_json) VALUES (${ns}, ${i + 1}, ${pyStr(job["id"])}, ${pyDumps(job)})`, { discard: true })
      )
    )
  ).pipe(Effect.asVoid, Effect.orDie)

/** One stored job with its list position. */
export interface JobEntry {
  readonly seq: number
  readonly job: Job
}

const entriesOf = (rows: ReadonlyArray<{ readonly seq: number; readonly job_json: string }>): Array<JobEntry> =>
  rows.flatMap((r) => {
    const job = parse(r.job_json)
    return isDict(job) ? [{ seq: r.seq, job }] : []
  })

/** The first job (in list order) whose id is `id`, with its position. */
export const loadJobEntry = (ns: string, id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly seq: number; readonly job_json: string }>`SELECT seq, job_json FROM cron_jobs
      WHERE namespace = ${ns} AND id = ${id} ORDER BY seq`
  ).pipe(
    Effect.map((rows) => entriesOf(rows).find((e) => e.job["id"] === id)),
    Effect.orDie
  )

/**
 * The jobs that may be due at `now` (epoch seconds), in list order: a superset the ticker decides
 * on, read off the due index. The margin covers any zone offset (see JOB_DUE_KEY).
 */
export const loadMaybeDueJobs = (ns: string, now: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.unsafe<{ readonly seq: number; readonly job_json: string }>(MAYBE_DUE_SQL, [ns, now / 86400 + 2440587.5 + DUE_MARGIN_DAYS])
  ).pipe(Effect.map(entriesOf), Effect.orDie)

/** The due query (namespace, Julian day bound); its text must repeat the index's expression to use it. */
export const MAYBE_DUE_SQL = `SELECT seq, job_json FROM cron_jobs WHERE namespace = ? AND ${JOB_DUE_KEY} <= ? ORDER BY seq`

/** Wider than any UTC offset (−12 h to +14 h). */
const DUE_MARGIN_DAYS = 15 / 24

/** Rewrites the job at a list position. */
export const saveJobAt = (ns: string, seq: number, job: Job) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE cron_jobs SET id = ${pyStr(job["id"])}, job_json = ${pyDumps(job)} WHERE namespace = ${ns} AND seq = ${seq}`
  ).pipe(Effect.asVoid, Effect.orDie)

/** Removes the job at a list position. */
export const deleteJobAt = (ns: string, seq: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DELETE FROM cron_jobs WHERE namespace = ${ns} AND seq = ${seq}`).pipe(
    Effect.asVoid,
    Effect.orDie
  )

/** Namespaces that have jobs (the ticker visits them): one index seek per namespace, not a scan of every job. */
export const jobNamespaces = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ readonly namespace: string }>`WITH RECURSIVE ns(namespace) AS (
      SELECT MIN(namespace) FROM cron_jobs
      UNION ALL
      SELECT (SELECT MIN(c.namespace) FROM cron_jobs c WHERE c.namespace > ns.namespace) FROM ns WHERE ns.namespace IS NOT NULL
    )
    SELECT namespace FROM ns WHERE namespace IS NOT NULL`
).pipe(
  Effect.map((rows) => rows.map((r) => r.namespace)),
  Effect.orDie
)

export const saveExecution = (ns: string, jobId: string, record: Record<string, unknown>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.gen(() => appendExecution(sql, ns, jobId, record))
  ).pipe(Effect.orDie)

function* appendExecution(sql: SqlClient.SqlClient, ns: string, jobId: string, record: Record<string, unknown>) {
  const rows = yield* sql<{ readonly n: number | null }>`SELECT MAX(seq) AS n FROM cron_executions WHERE namespace = ${ns}`
  const seq = (rows[0]?.n ?? 0) + 1
  yield* sql`INSERT INTO cron_executions (namespace, seq, job_id, record_json) VALUES (${ns}, ${seq}, ${jobId}, ${pyDumps(record)})`
}

/** `latest_executions`: the newest record per job id, or null. */
export const latestExecution = (ns: string, jobId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly record_json: string }>`SELECT record_json FROM cron_executions
      WHERE namespace = ${ns} AND job_id = ${jobId} ORDER BY seq DESC LIMIT 1`
  ).pipe(
    Effect.map((rows) => (rows[0] === undefined ? null : parse(rows[0].record_json))),
    Effect.orDie
  )
