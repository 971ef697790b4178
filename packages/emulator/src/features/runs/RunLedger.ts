/**
 * The 0.21.0 durable Idempotency-Key ledger for /v1/runs, in Storage. One row per (scope, key):
 * the request fingerprint, the run id, the public status as sorted JSON, the owning process and
 * the last status update. Rows of settled runs expire 24 h after that update (pruned lazily on
 * keyed admissions); unsettled rows never expire. Owner identity lets a restarted gateway tell
 * its own runs from those of a process that died.
 */
import { Effect } from "effect"
import { nodeCrypto } from "../../services/NodeCrypto.js"
import { Storage, type StorageShape } from "../../services/Storage.js"
import { type RunRecord, TERMINAL_STATUSES, type RunStatus } from "./RunRecord.js"
import { PyDict, pyDumps, pyJsonDumps, pyJsonLoads, type PyValue, toHandlerValue } from "../../python/index.js"

export const LEDGER_RETENTION_SECONDS = 86_400
export const INTERRUPTED_ERROR = "The gateway restarted before this run settled."

export const RUN_LEDGER_SCHEMA: ReadonlyArray<string> = [
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
  `CREATE INDEX IF NOT EXISTS run_ledger_expiry ON run_ledger (namespace, status, updated_at)`
]

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
  return nodeCrypto().createHash("sha256").update(canonical, "utf8").digest("hex")
}

/** sha256("\0".join([profile, key or the no-key placeholder])): who may see a run. */
export const ownerScope = (profile: string, apiKey: string): string =>
  nodeCrypto().createHash("sha256").update(`${profile || "default"}\0${apiKey || "unauthenticated-test-listener"}`, "utf8").digest("hex")

/** The status as upstream stores it: JSON with sorted keys. */
export const encodeStatus = (record: RunRecord): string => pyDumps(record, true, true)

export const decodeStatus = (json: string): RunRecord => {
  const parsed = pyJsonLoads(json)
  if (parsed._tag === "Left") return {}
  return toHandlerValue(parsed.right) as RunRecord
}

export const isTerminal = (status: string): boolean => TERMINAL_STATUSES.has(status as RunStatus)

const PRUNE = `DELETE FROM run_ledger WHERE namespace = ? AND updated_at < ?
  AND status IN ('completed', 'failed', 'cancelled', 'interrupted')`
const COLUMNS = "scope, idempotency_key, fingerprint, run_id, status_json, status, owner, updated_at"
const BY_KEY = `SELECT ${COLUMNS} FROM run_ledger WHERE namespace = ? AND scope = ? AND idempotency_key = ?`
const BY_RUN = `SELECT ${COLUMNS} FROM run_ledger WHERE namespace = ? AND run_id = ?`
const INSERT = `INSERT INTO run_ledger (namespace, scope, idempotency_key, fingerprint, run_id, status_json, status, owner, created_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
const PERSIST = `UPDATE run_ledger SET status_json = ?, status = ?, updated_at = ? WHERE namespace = ? AND run_id = ?`

/**
 * The ledger's statements, synchronous on the Storage connection: callers run them inside
 * `storage.use` or `storage.transaction` (admission prunes, looks up and reserves atomically).
 */
export const ledger = (storage: StorageShape, namespace: string) => ({
  pruneExpired: (now: number): void => void storage.statement(PRUNE).run(namespace, now - LEDGER_RETENTION_SECONDS),
  findByKey: (scope: string, key: string): LedgerRow | undefined =>
    storage.statement(BY_KEY).get(namespace, scope, key) as LedgerRow | undefined,
  findByRun: (runId: string): LedgerRow | undefined => storage.statement(BY_RUN).get(namespace, runId) as LedgerRow | undefined,
  insertReservation: (row: Omit<LedgerRow, "status_json" | "status"> & { readonly record: RunRecord; readonly created_at: number }): void =>
    void storage.statement(INSERT).run(
      namespace,
      row.scope,
      row.idempotency_key,
      row.fingerprint,
      row.run_id,
      encodeStatus(row.record),
      String(row.record["status"]),
      row.owner,
      row.created_at,
      row.updated_at
    ),
  persistStatus: (runId: string, record: RunRecord, now: number): void =>
    void storage.statement(PERSIST).run(encodeStatus(record), String(record["status"]), now, namespace, runId)
})

export type KeyedAdmission<Refusal> =
  | { readonly _tag: "new"; readonly runId: string; readonly record: RunRecord }
  | { readonly _tag: "replay"; readonly runId: string }
  | { readonly _tag: "conflict" }
  | { readonly _tag: "limited"; readonly refusal: Refusal }

/**
 * A keyed submission's admission, run inside one `storage.transaction` so that concurrent identical
 * submissions start exactly one run: prune, look up (replay / conflict), the concurrency cap, reserve.
 */
export const admitKeyed = <Refusal>(
  storage: StorageShape,
  namespace: string,
  claim: {
    readonly scope: string
    readonly key: string
    readonly fingerprint: string
    readonly owner: string
    readonly now: number
    /** The concurrency cap's refusal of a new run, if it refuses. */
    readonly limited: () => Refusal | undefined
    readonly newRun: () => { readonly runId: string; readonly record: RunRecord }
  }
): KeyedAdmission<Refusal> => {
  const runs = ledger(storage, namespace)
  runs.pruneExpired(claim.now)
  const row = runs.findByKey(claim.scope, claim.key)
  if (row !== undefined) return row.fingerprint === claim.fingerprint ? { _tag: "replay", runId: row.run_id } : { _tag: "conflict" }
  const refusal = claim.limited()
  if (refusal !== undefined) return { _tag: "limited", refusal }
  const { runId, record } = claim.newRun()
  runs.insertReservation({
    scope: claim.scope,
    idempotency_key: claim.key,
    fingerprint: claim.fingerprint,
    run_id: runId,
    owner: claim.owner,
    created_at: claim.now,
    updated_at: claim.now,
    record
  })
  return { _tag: "new", runId, record }
}

/** The ledger prune on its own (the bench times it against the number of expired rows). */
export const pruneExpired = (namespace: string, now: number) =>
  Effect.flatMap(Storage, (storage) => storage.use(() => ledger(storage, namespace).pruneExpired(now)))

/** Fields whose change upstream persists even when the status stays the same. */
export const PERSISTED_FIELDS: ReadonlyArray<string> = ["output", "error", "usage", "pending_steer", "session_id"]
