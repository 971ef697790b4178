/**
 * Upstream keeps cron jobs in HERMES_HOME/cron/jobs.json (one ordered list, rewritten whole on
 * every change) and execution records in cron/executions.db. The emulator keeps the same: one JSON
 * list per namespace, and the execution records the list endpoint reports as `latest_execution`.
 */
export const JOB_TABLES: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS cron_job_lists (
     namespace TEXT PRIMARY KEY,
     jobs_json TEXT NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS cron_executions (
     namespace TEXT NOT NULL,
     seq INTEGER NOT NULL,
     job_id TEXT NOT NULL,
     record_json TEXT NOT NULL,
     PRIMARY KEY (namespace, seq)
   )`
]

export const JOB_TABLE_NAMES = ["cron_job_lists", "cron_executions"] as const
