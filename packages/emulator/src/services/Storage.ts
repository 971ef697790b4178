/**
 * Durable state through @effect/sql: a SQLite file under the data dir (`:memory:` in tests).
 * Only what upstream itself persists lives here (the 0.21.0 runs ledger, stored responses,
 * sessions, jobs); what upstream keeps in process memory stays in GatewayState, so a restart
 * loses exactly what a real restart loses.
 */
import { SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { SETTLED_RUNS_SCHEMA } from "../runs/SettledRuns.js"
import { Effect, Layer } from "effect"
import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import { SESSION_TABLE_NAMES, SESSION_TABLES } from "../sessions/SessionTables.js"
import { JOB_TABLE_NAMES, JOB_TABLES } from "../jobs/JobTables.js"

/** Every table the emulator owns. Each statement is idempotent; order matters for foreign keys only. */
export const SCHEMA: ReadonlyArray<string> = [
  ...SETTLED_RUNS_SCHEMA,
  `CREATE TABLE IF NOT EXISTS run_ledger (
     namespace TEXT NOT NULL,
     scope TEXT NOT NULL,
     idempotency_key TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     run_id TEXT NOT NULL,
     status_json TEXT NOT NULL,
     status TEXT NOT NULL,
     owner TEXT NOT NULL,
     created_at REAL NOT NULL,
     updated_at REAL NOT NULL,
     PRIMARY KEY (namespace, scope, idempotency_key)
   )`,
  `CREATE UNIQUE INDEX IF NOT EXISTS run_ledger_run ON run_ledger (namespace, run_id)`,
  // the lazy 24 h prune runs on every keyed admission: it must not scan the whole ledger
  `CREATE INDEX IF NOT EXISTS run_ledger_expiry ON run_ledger (namespace, status, updated_at)`,
  // Responses API store (upstream response_store.db): LRU by accessed_at, access_seq breaks ties
  `CREATE TABLE IF NOT EXISTS stored_responses (
     namespace TEXT NOT NULL,
     response_id TEXT NOT NULL,
     data TEXT NOT NULL,
     accessed_at REAL NOT NULL,
     access_seq INTEGER NOT NULL,
     PRIMARY KEY (namespace, response_id)
   )`,
  `CREATE TABLE IF NOT EXISTS response_conversations (
     namespace TEXT NOT NULL,
     name TEXT NOT NULL,
     response_id TEXT NOT NULL,
     PRIMARY KEY (namespace, name)
   )`
]

export const migrate = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  for (const statement of [...SCHEMA, ...SESSION_TABLES, ...JOB_TABLES]) yield* sql.unsafe(statement)
})

/** Deletes one namespace's durable state (admin reset). */
export const clearNamespace = (namespace: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`DELETE FROM run_ledger WHERE namespace = ${namespace}`
    yield* sql`DELETE FROM settled_runs WHERE namespace = ${namespace}`
    for (const table of [...SESSION_TABLE_NAMES, ...JOB_TABLE_NAMES]) yield* sql.unsafe(`DELETE FROM ${table} WHERE namespace = ?`, [namespace])
    yield* sql`DELETE FROM stored_responses WHERE namespace = ${namespace}`
    yield* sql`DELETE FROM response_conversations WHERE namespace = ${namespace}`
  })

export const StorageLive = (filename: string) =>
  Layer.effectDiscard(migrate).pipe(
    Layer.provideMerge(
      Layer.suspend(() => {
        if (filename !== ":memory:") mkdirSync(dirname(filename), { recursive: true })
        return SqliteClient.layer({ filename })
      })
    ),
    Layer.orDie
  )
