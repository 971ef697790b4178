/**
 * The 0.21.0 durable Idempotency-Key ledger for /v1/runs, in Storage. One row per (scope, key):
 * the request fingerprint, the run id, the public status as sorted JSON, the owning process and
 * the last status update. Rows of settled runs expire 24 h after that update (pruned lazily on
 * keyed admissions); unsettled rows never expire. Owner identity lets a restarted gateway tell
 * its own runs from those of a process that died.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { type RunRecord, TERMINAL_STATUSES, type RunStatus } from "./RunRecord.js"
import { fromJs, PyDict, pyJsonDumps, pyJsonLoads, type PyValue, toHandlerValue } from "../python/index.js"

export const LEDGER_RETENTION_SECONDS = 86_400
export const INTERRUPTED_ERROR = "The gateway restarted before this run settled."

export interface LedgerRow {
  readonly scope: string
  readonly idempotency_key: string
  readonly fingerprint: string
  readonly run_id: string
  readonly status_json: string
  readonly status: string
  readonly owner: string
  readonly updated_at: number
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * sha256 of json.dumps({"body": body, "gateway_session_key": key or ""}, sort_keys=True,
 * separators=(",", ":"), ensure_ascii=False).encode(). Undefined when Python's UTF-8 encode
 * would raise (a lone surrogate in the body).
 */
export const runFingerprint = (body: PyValue, sessionKey: string | undefined): string | undefined => {
  const canonical = pyJsonDumps(
    new PyDict(new Map<string, PyValue>([["body", body], ["gateway_session_key", sessionKey ?? ""]])),
    { sortKeys: true, separators: [",", ":"], ensureAscii: false }
  )
  if (LONE_SURROGATE.test(canonical)) return undefined
  return createHash("sha256").update(canonical, "utf8").digest("hex")
}

/** sha256("\0".join([profile, key or the no-key placeholder])): who may see a run. */
export const ownerScope = (profile: string, apiKey: string): string =>
  createHash("sha256").update(`${profile || "default"}\0${apiKey || "unauthenticated-test-listener"}`, "utf8").digest("hex")

/** The status as upstream stores it: JSON with sorted keys. */
export const encodeStatus = (record: RunRecord): string => pyJsonDumps(fromJs(record), { sortKeys: true })

export const decodeStatus = (json: string): RunRecord => {
  const parsed = pyJsonLoads(json)
  if (parsed._tag === "Left") return {}
  return toHandlerValue(parsed.right) as RunRecord
}

export const isTerminal = (status: string): boolean => TERMINAL_STATUSES.has(status as RunStatus)

export const pruneExpired = (namespace: string, now: number) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`DELETE FROM run_ledger WHERE namespace = ${namespace} AND updated_at < ${now - LEDGER_RETENTION_SECONDS}
          AND status IN ('completed', 'failed', 'cancelled', 'interrupted')`
  )

export const findByKey = (namespace: string, scope: string, key: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<LedgerRow>`SELECT scope, idempotency_key, fingerprint, run_id, status_json, status, owner, updated_at
                   FROM run_ledger WHERE namespace = ${namespace} AND scope = ${scope} AND idempotency_key = ${key}`
  ).pipe(Effect.map((rows) => rows[0]))

export const findByRun = (namespace: string, runId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<LedgerRow>`SELECT scope, idempotency_key, fingerprint, run_id, status_json, status, owner, updated_at
                   FROM run_ledger WHERE namespace = ${namespace} AND run_id = ${runId}`
  ).pipe(Effect.map((rows) => rows[0]))

export const insertReservation = (
  namespace: string,
  row: Omit<LedgerRow, "status_json" | "status"> & { readonly record: RunRecord; readonly created_at: number }
) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`INSERT INTO run_ledger (namespace, scope, idempotency_key, fingerprint, run_id, status_json, status, owner, created_at, updated_at)
          VALUES (${namespace}, ${row.scope}, ${row.idempotency_key}, ${row.fingerprint}, ${row.run_id},
                  ${encodeStatus(row.record)}, ${String(row.record["status"])}, ${row.owner}, ${row.created_at}, ${row.updated_at})`
  )

export const persistStatus = (namespace: string, runId: string, record: RunRecord, now: number) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`UPDATE run_ledger SET status_json = ${encodeStatus(record)}, status = ${String(record["status"])},
          updated_at = ${now} WHERE namespace = ${namespace} AND run_id = ${runId}`
  )

/** Fields whose change upstream persists even when the status stays the same. */
export const PERSISTED_FIELDS: ReadonlyArray<string> = ["output", "error", "usage", "pending_steer", "session_id"]
