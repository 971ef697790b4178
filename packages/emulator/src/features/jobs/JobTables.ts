/**
 * Upstream keeps cron jobs in HERMES_HOME/cron/jobs.json (one ordered list, rewritten whole on
 * every change) and execution records in cron/executions.db. The emulator keeps the same list
 * order, one row per job (`seq` is the list position): rewriting the whole list made each create
 * cost in proportion to the jobs already stored. Execution records are what the list endpoint
 * reports as `latest_execution`.
 */
/**
 * When a job is due, in Julian days, as SQLite reads its `next_run_at` (NULL: never due — no
 * next run, paused, or disabled). It keys an index so the ticker reads only due jobs. It is a
 * prefilter, never the decision: a time without an offset is read as UTC here while the ticker
 * reads it in the configured zone, so the ticker asks for a margin wider than any zone offset and
 * decides on the jobs returned; a row it cannot read (not canonical JSON, a time SQLite cannot
 * parse) is always returned. `julianday` only sees text that starts like a date: an index
 * expression may not depend on the clock ("now").
 */
export const JOB_DUE_KEY = `(CASE
    WHEN NOT json_valid(job_json) THEN -1
    WHEN json_type(job_json, '$.next_run_at') IS NOT 'text' THEN NULL
    WHEN json_extract(job_json, '$.state') IS 'paused' OR json_type(job_json, '$.enabled') IS 'false' THEN NULL
    WHEN json_extract(job_json, '$.next_run_at') NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN -1
    ELSE COALESCE(julianday(json_extract(job_json, '$.next_run_at')), -1) END)`

export const JOB_TABLES: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS cron_jobs (
     namespace TEXT NOT NULL,
     seq INTEGER NOT NULL,
     id TEXT NOT NULL,
     job_json TEXT NOT NULL,
     PRIMARY KEY (namespace, seq)
   )`,
  `CREATE INDEX IF NOT EXISTS cron_jobs_id ON cron_jobs (namespace, id, seq)`,
  // the ticker's due jobs (see JOB_DUE_KEY)
  `CREATE INDEX IF NOT EXISTS cron_jobs_due ON cron_jobs (namespace, ${JOB_DUE_KEY})`,
  `CREATE TABLE IF NOT EXISTS cron_executions (
     namespace TEXT NOT NULL,
     seq INTEGER NOT NULL,
     job_id TEXT NOT NULL,
     record_json TEXT NOT NULL,
     PRIMARY KEY (namespace, seq)
   )`,
  // the list asks each job's latest record
  `CREATE INDEX IF NOT EXISTS cron_executions_job ON cron_executions (namespace, job_id, seq)`,
  // a data dir written when the list was one JSON document: its jobs become rows, in order
  `CREATE TABLE IF NOT EXISTS cron_job_lists (
     namespace TEXT PRIMARY KEY,
     jobs_json TEXT NOT NULL
   )`,
  `INSERT INTO cron_jobs (namespace, seq, id, job_json)
     SELECT l.namespace, j.key + 1, COALESCE(json_extract(j.value, '$.id'), ''), j.value
     FROM cron_job_lists l, json_each(l.jobs_json) j
     WHERE json_valid(l.jobs_json) AND j.type = 'object'`,
  `DROP TABLE cron_job_lists`
]

export const JOB_TABLE_NAMES = ["cron_jobs", "cron_executions"] as const
