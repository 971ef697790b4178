/**
 * Every table the emulator keeps, gathered from the parts that own them (Storage itself knows no
 * table): run statuses and the runs ledger, stored responses, sessions, jobs.
 */
import { JOB_TABLE_NAMES, JOB_TABLES } from "./features/jobs/JobTables.js"
import { RESPONSE_STORE_SCHEMA } from "./features/responses/ResponseStore.js"
import { RUN_LEDGER_SCHEMA } from "./features/runs/RunLedger.js"
import { SETTLED_RUNS_SCHEMA } from "./features/runs/SettledRuns.js"
import type { StorageSchema } from "./services/Storage.js"
import { SESSION_DERIVED_TABLE_NAMES, SESSION_TABLE_NAMES, SESSION_TABLES } from "./features/sessions/SessionTables.js"

export const STORAGE_SCHEMA: StorageSchema = {
  statements: [...SETTLED_RUNS_SCHEMA, ...RUN_LEDGER_SCHEMA, ...RESPONSE_STORE_SCHEMA, ...SESSION_TABLES, ...JOB_TABLES],
  namespacedTables: ["run_ledger", "settled_runs", ...SESSION_TABLE_NAMES, ...SESSION_DERIVED_TABLE_NAMES, ...JOB_TABLE_NAMES, "stored_responses", "response_conversations"]
}
