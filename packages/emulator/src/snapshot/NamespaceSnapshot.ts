/**
 * Saving a namespace's durable state and starting from it, like LocalStack's pods: sessions and
 * their messages, cron jobs and executions, stored responses and conversations, the 0.21.0 runs
 * ledger. What upstream keeps only in process memory (live runs, settled run statuses, the
 * idempotency cache) is not saved, exactly as a real restart loses it; a load therefore drops the
 * namespace's memory too (as `POST /__admin/restart` does) and replaces its durable rows. The
 * Script queue, holds, clock and faults are test controls, not state: a load leaves them alone.
 */
import { FileSystem } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { EmulatorConfig } from "../config/EmulatorConfig.js"
import { JOB_TABLE_NAMES } from "../features/jobs/JobTables.js"
import { EmuClock } from "../services/Clock.js"
import { clearNamespace } from "../services/Storage.js"
import { SESSION_TABLE_NAMES } from "../features/sessions/SessionTables.js"
import { SnapshotError } from "../namespace/Namespace.js"
import { SNAPSHOT_FORMAT, SnapshotFile } from "../namespace/SnapshotFile.js"
import { restartNamespace } from "../NamespaceLifecycle.js"
import { type ColumnInfo, describeProblem, firstProblem, type TableInfo } from "./SnapshotValidation.js"

/** Every durable table (settled_runs is process memory upstream, see runs/SettledRuns.ts). */
export const SNAPSHOT_TABLES: ReadonlyArray<string> = [
  "run_ledger",
  "stored_responses",
  "response_conversations",
  ...SESSION_TABLE_NAMES,
  ...JOB_TABLE_NAMES
]

export { SnapshotError }

type Row = Record<string, string | number | null>

/** A table as the database declares it (its CREATE TABLE and indexes): columns and unique keys. */
const tableInfo = (table: string) => Effect.gen(() => describeTable(table)).pipe(Effect.orDie)

function* describeTable(table: string) {
  const sql = yield* SqlClient.SqlClient
  const columns = yield* sql.unsafe<ColumnInfo>(`PRAGMA table_info(${table})`)
  const indexes = yield* sql.unsafe<{ name: string; unique: number }>(`PRAGMA index_list(${table})`)
  const uniqueKeys: Array<ReadonlyArray<string>> = []
  for (const index of indexes.filter((i) => i.unique === 1)) {
    const parts = yield* sql.unsafe<{ seqno: number; name: string }>(`PRAGMA index_info("${index.name}")`)
    uniqueKeys.push([...parts].sort((a, b) => a.seqno - b.seqno).map((p) => p.name))
  }
  const info: TableInfo = { columns, uniqueKeys }
  return info
}

/** The namespace's durable rows, as a snapshot document. */
export const saveSnapshot = (namespace: string) => Effect.gen(() => snapshotOf(namespace)).pipe(Effect.orDie)

function* snapshotOf(namespace: string) {
  const sql = yield* SqlClient.SqlClient
  const tables: Record<string, ReadonlyArray<Row>> = {}
  for (const table of SNAPSHOT_TABLES) {
    const rows = yield* sql.unsafe<Row>(`SELECT * FROM ${table} WHERE namespace = ? ORDER BY rowid`, [namespace])
    tables[table] = rows.map(({ namespace: _, ...rest }) => rest)
  }
  const snapshot: SnapshotFile = {
    format: SNAPSHOT_FORMAT,
    version: 1,
    hermesVersion: (yield* EmulatorConfig).pin,
    namespace,
    savedAt: (yield* EmuClock).now(namespace),
    tables
  }
  return snapshot
}

/** Replaces the namespace's durable state with the snapshot's; returns the rows loaded per table. */
export const loadSnapshot = (namespace: string, snapshot: SnapshotFile) => Effect.gen(() => loadRows(namespace, snapshot))

/** One table's rows to insert. */
interface TableLoad {
  readonly table: string
  readonly rows: ReadonlyArray<Row>
}

function* loadRows(namespace: string, snapshot: SnapshotFile) {
  const pin = (yield* EmulatorConfig).pin
  if (snapshot.hermesVersion !== pin) {
    return yield* new SnapshotError({ message: `snapshot was saved under Hermes ${snapshot.hermesVersion}, this emulator emulates ${pin}` })
  }
  const unknown = Object.keys(snapshot.tables).filter((t) => !SNAPSHOT_TABLES.includes(t))
  if (unknown.length > 0) return yield* new SnapshotError({ message: `snapshot has unknown tables: ${unknown.join(", ")}` })
  const sql = yield* SqlClient.SqlClient
  const plan: Array<TableLoad> = []
  // every cell is checked before anything changes: a refused load leaves the namespace as it was
  for (const [table, rows] of Object.entries(snapshot.tables)) {
    const problem = firstProblem(table, yield* tableInfo(table), rows)
    if (problem !== undefined) return yield* new SnapshotError({ message: describeProblem(problem) })
    plan.push({ table, rows })
  }
  yield* restartNamespace(namespace)
  const counts: Record<string, number> = {}
  // every row was checked above: what storage still refuses is storage failing (a full disk, a
  // corrupt page), a 500 the request path reports, not a bad snapshot
  yield* sql.withTransaction(Effect.gen(() => replaceRows(sql, namespace, plan, counts))).pipe(Effect.orDie)
  return counts
}

/** Inside the load's transaction: the namespace's rows deleted, the plan's inserted; counts per table. */
function* replaceRows(sql: SqlClient.SqlClient, namespace: string, plan: ReadonlyArray<TableLoad>, counts: Record<string, number>) {
  yield* clearNamespace(namespace)
  for (const { table, rows } of plan) {
    for (const row of rows) {
      // each row names its own columns: a column it leaves out takes the table's default
      const columns = Object.keys(row)
      const insert = `INSERT INTO ${table} (${["namespace", ...columns].join(", ")}) VALUES (${["?", ...columns.map(() => "?")].join(", ")})`
      yield* sql.unsafe(insert, [namespace, ...columns.map((c) => row[c] ?? null)])
    }
    counts[table] = rows.length
  }
}

/**
 * The save call's answer, `{"snapshot": {...}}`, is a snapshot as it stands: saved to a file as it
 * is, it loads; so does the inner document alone.
 */
const unwrapSaveAnswer = (json: unknown): unknown =>
  json !== null && typeof json === "object" && !Array.isArray(json) && Object.keys(json).length === 1 && "snapshot" in json
    ? (json as { readonly snapshot: unknown }).snapshot
    : json

const decodeSnapshot = (json: unknown) =>
  Schema.decodeUnknown(SnapshotFile)(unwrapSaveAnswer(json)).pipe(Effect.mapError((e) => new SnapshotError({ message: `not a hermetic snapshot: ${e.message}` })))

export const parseSnapshot = (text: string) =>
  Effect.try({ try: () => JSON.parse(text) as unknown, catch: () => new SnapshotError({ message: "snapshot is not JSON" }) }).pipe(
    Effect.flatMap(decodeSnapshot)
  )

export const decodeSnapshotJson = decodeSnapshot

export const writeSnapshotFile = (namespace: string, file: string) => Effect.gen(() => saveToFile(namespace, file))

function* saveToFile(namespace: string, file: string) {
  const snapshot = yield* saveSnapshot(namespace)
  const fs = yield* FileSystem.FileSystem
  yield* fs.writeFileString(file, `${JSON.stringify(snapshot, null, 1)}\n`).pipe(
    Effect.mapError((e) => new SnapshotError({ message: `cannot write snapshot ${file}: ${e.message}` }))
  )
  return snapshot
}

/** Loads a snapshot file into a namespace (default: the one it was saved from). */
export const readSnapshotFile = (file: string, namespace?: string) => Effect.gen(() => loadFromFile(file, namespace))

function* loadFromFile(file: string, namespace: string | undefined) {
  const fs = yield* FileSystem.FileSystem
  const text = yield* fs.readFileString(file).pipe(Effect.mapError((e) => new SnapshotError({ message: `cannot read snapshot ${file}: ${e.message}` })))
  return yield* loadSnapshotText(text, namespace)
}

/** A snapshot file's text loaded into a namespace (default: the one it was saved from). */
export const loadSnapshotText = (text: string, namespace?: string) =>
  Effect.flatMap(parseSnapshot(text), (snapshot) => loadSnapshot(namespace ?? snapshot.namespace, snapshot))
