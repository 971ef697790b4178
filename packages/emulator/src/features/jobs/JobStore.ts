/**
 * Load and save a namespace's job list (Python JSON values kept as they are: an int stays an int,
 * true stays a bool) and its execution records.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { isDict, pyDumps, pyJsonLoads, toHandlerValue } from "../../python/index.js"

export type Job = Record<string, unknown>

const parse = (text: string): unknown => {
  const parsed = pyJsonLoads(text)
  return parsed._tag === "Right" ? toHandlerValue(parsed.right) : null
}

export const loadJobs = (ns: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly jobs_json: string }>`SELECT jobs_json FROM cron_job_lists WHERE namespace = ${ns}`
  ).pipe(
    Effect.map((rows): Array<Job> => {
      const list = rows[0] === undefined ? [] : parse(rows[0].jobs_json)
      return Array.isArray(list) ? list.filter(isDict) : []
    }),
    Effect.orDie
  )

export const saveJobs = (ns: string, jobs: ReadonlyArray<Job>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    const text = pyDumps(jobs)
    return sql`INSERT INTO cron_job_lists (namespace, jobs_json) VALUES (${ns}, ${text})
               ON CONFLICT (namespace) DO UPDATE SET jobs_json = excluded.jobs_json`
  }).pipe(Effect.asVoid, Effect.orDie)

/** Namespaces that have a job list (the ticker visits them). */
export const jobNamespaces = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ readonly namespace: string }>`SELECT namespace FROM cron_job_lists`
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
