/**
 * Stored responses, as upstream's `ResponseStore` keeps them in response_store.db under
 * HERMES_HOME: one row per response (the response body, the transcript to chain from, the
 * instructions and the session id), an LRU by access time capped at the pin's size, and a map of
 * conversation names to their latest response. Durable: it survives restarts.
 *
 * Upstream binds client values (previous_response_id, conversation) straight into its SQLite
 * queries; values SQLite cannot bind make the handler crash, which `SqlKey` reproduces.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Either } from "effect"
import type { AgentMessage } from "../../agent/AgentMessages.js"
import { pyDumps, PyFloat, PyInt, pyJsonLoads, toHandlerValue } from "../../python/index.js"

/** Upstream's response_store.db: LRU by accessed_at, access_seq breaks ties; named conversations. */
export const RESPONSE_STORE_SCHEMA: ReadonlyArray<string> = [
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

export interface StoredResponse {
  readonly response: Record<string, unknown>
  readonly conversation_history: Array<AgentMessage>
  readonly instructions: unknown
  readonly session_id: unknown
}

const SQLITE_INT_MAX = 2n ** 63n - 1n

/**
 * A client value as sqlite3 binds it against a TEXT column (None, int, float, str; bool as int),
 * or Left when binding raises (dict, list, an int beyond 64 bits) and upstream's handler crashes.
 */
export const sqlKey = (value: unknown): Either.Either<string | null, string> => {
  if (value === null || value === undefined) return Either.right(null)
  if (typeof value === "string") return Either.right(value)
  if (typeof value === "boolean") return Either.right(value ? "1" : "0")
  if (typeof value === "number") return Either.right(Number.isInteger(value) ? String(value) : floatText(value))
  if (value instanceof PyFloat) return Either.right(floatText(value.value))
  if (value instanceof PyInt) {
    return value.value > SQLITE_INT_MAX || value.value < -SQLITE_INT_MAX - 1n
      ? Either.left("Python int too large to convert to SQLite INTEGER")
      : Either.right(value.value.toString())
  }
  return Either.left("Error binding parameter: type is not supported")
}

/** Digits after a point with the trailing zeros gone, and `.0` when none is left (the `!` flag). */
const withPoint = (digits: string): string => {
  const trimmed = digits.includes(".") ? digits.replace(/0+$/, "").replace(/\.$/, "") : digits
  return trimmed.includes(".") ? trimmed : `${trimmed}.0`
}

/**
 * A REAL compared with TEXT affinity becomes SQLite's `%!.15g` text: 15 significant digits, the
 * exponent form below 1e-4 and from 1e15 (two exponent digits at least), a point always
 * (1.0e+20, 1.5e-07, 2.0). sqlite3 binds NaN as NULL: no text.
 */
const floatText = (x: number): string | null => {
  if (Number.isNaN(x)) return null
  if (!Number.isFinite(x)) return x > 0 ? "Inf" : "-Inf"
  const [mantissa = "", exponent = "0"] = x.toExponential(14).split("e")
  const exp = Number(exponent)
  if (exp < -4 || exp >= 15) return `${withPoint(mantissa)}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`
  return withPoint(x.toFixed(14 - exp))
}

const decode = (data: string): StoredResponse | undefined => {
  const parsed = pyJsonLoads(data)
  if (Either.isLeft(parsed)) return undefined
  return toHandlerValue(parsed.right) as StoredResponse
}

/** `ResponseStore.get`: the row, and its access time refreshed (the LRU touch). */
export const getStoredResponse = (namespace: string, responseId: string | null, now: number) =>
  Effect.gen(() => getAndTouch(namespace, responseId, now)).pipe(Effect.orDie)

function* getAndTouch(namespace: string, responseId: string | null, now: number) {
  if (responseId === null) return undefined
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ data: string }>`
    SELECT data FROM stored_responses WHERE namespace = ${namespace} AND response_id = ${responseId}`
  const row = rows[0]
  if (row === undefined) return undefined
  yield* sql`
    UPDATE stored_responses
    SET accessed_at = ${now},
        access_seq = (SELECT COALESCE(MAX(access_seq), 0) + 1 FROM stored_responses WHERE namespace = ${namespace})
    WHERE namespace = ${namespace} AND response_id = ${responseId}`
  return decode(row.data)
}

/** `ResponseStore.put`: insert or replace, then evict the least recently accessed beyond `cap`. */
export const putStoredResponse = (namespace: string, responseId: string, data: StoredResponse, now: number, cap: number) =>
  Effect.gen(() => putInTransaction(namespace, responseId, data, now, cap)).pipe(Effect.orDie)

function* putInTransaction(namespace: string, responseId: string, data: StoredResponse, now: number, cap: number) {
  const sql = yield* SqlClient.SqlClient
  yield* sql.withTransaction(Effect.gen(() => putAndEvict(sql, namespace, responseId, data, now, cap)))
}

function* putAndEvict(sql: SqlClient.SqlClient, namespace: string, responseId: string, data: StoredResponse, now: number, cap: number) {
  yield* sql`
    INSERT OR REPLACE INTO stored_responses (namespace, response_id, data, accessed_at, access_seq)
    VALUES (${namespace}, ${responseId}, ${pyDumps(data)}, ${now},
            (SELECT COALESCE(MAX(access_seq), 0) + 1 FROM stored_responses WHERE namespace = ${namespace}))`
  const counted = yield* sql<{ n: number }>`SELECT COUNT(*) AS n FROM stored_responses WHERE namespace = ${namespace}`
  const count = counted[0]?.n ?? 0
  if (count <= cap) return
  const evicted = yield* sql<{ response_id: string }>`
    SELECT response_id FROM stored_responses WHERE namespace = ${namespace}
    ORDER BY accessed_at ASC, access_seq ASC LIMIT ${count - cap}`
  const ids = evicted.map((r) => r.response_id)
  yield* sql`DELETE FROM response_conversations WHERE namespace = ${namespace} AND ${sql.in("response_id", ids)}`
  yield* sql`DELETE FROM stored_responses WHERE namespace = ${namespace} AND ${sql.in("response_id", ids)}`
}

/** `ResponseStore.delete`: true when the row existed; conversation names pointing at it go too. */
export const deleteStoredResponse = (namespace: string, responseId: string) =>
  Effect.gen(() => deleteInTransaction(namespace, responseId)).pipe(Effect.orDie)

function* deleteInTransaction(namespace: string, responseId: string) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(Effect.gen(() => deleteRows(sql, namespace, responseId)))
}

function* deleteRows(sql: SqlClient.SqlClient, namespace: string, responseId: string) {
  yield* sql`DELETE FROM response_conversations WHERE namespace = ${namespace} AND response_id = ${responseId}`
  const existing = yield* sql<{ n: number }>`
    SELECT COUNT(*) AS n FROM stored_responses WHERE namespace = ${namespace} AND response_id = ${responseId}`
  yield* sql`DELETE FROM stored_responses WHERE namespace = ${namespace} AND response_id = ${responseId}`
  return (existing[0]?.n ?? 0) > 0
}

/** `ResponseStore.get_conversation`: the latest response id of a conversation name. */
export const getConversation = (namespace: string, name: string | null) =>
  Effect.gen(() => conversationHead(namespace, name)).pipe(Effect.orDie)

function* conversationHead(namespace: string, name: string | null) {
  if (name === null) return undefined
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ response_id: string }>`
    SELECT response_id FROM response_conversations WHERE namespace = ${namespace} AND name = ${name}`
  return rows[0]?.response_id
}

/** `ResponseStore.set_conversation`. */
export const setConversation = (namespace: string, name: string | null, responseId: string) =>
  Effect.gen(() => writeConversation(namespace, name, responseId)).pipe(Effect.orDie)

function* writeConversation(namespace: string, name: string | null, responseId: string) {
  if (name === null) return
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    INSERT OR REPLACE INTO response_conversations (namespace, name, response_id)
    VALUES (${namespace}, ${name}, ${responseId})`
}
