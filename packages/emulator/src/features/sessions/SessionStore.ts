/**
 * The emulated SessionDB: the row operations the sessions API and the agent perform on state.db,
 * with upstream's semantics (first end_reason wins, titles unique across sessions, deletes orphan
 * children, message ids never reused). SQL failures are defects: the file is the emulator's own.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Either } from "effect"
import { MESSAGE_COLUMNS, type MessageRow, SESSION_COLUMNS, type SessionRow } from "./SessionRow.js"
import { sanitizeTitle } from "./SessionTitle.js"

export const getSession = (ns: string, id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.unsafe<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM hermes_sessions WHERE namespace = ? AND id = ?`, [ns, id])
  ).pipe(
    Effect.map((rows) => rows[0]),
    Effect.orDie
  )

export interface NewSession {
  readonly id: string
  readonly source: string
  readonly model: string | null
  readonly modelConfig: string | null
  readonly systemPrompt: string | null
  readonly parentSessionId: string | null
  readonly startedAt: number
}

/**
 * `_insert_session_row`: insert, or fill the still-NULL metadata of an existing row (never
 * overwriting what an earlier writer set).
 */
export const upsertSession = (ns: string, s: NewSession) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`INSERT INTO hermes_sessions (namespace, id, source, model, model_config, system_prompt, parent_session_id, started_at)
          VALUES (${ns}, ${s.id}, ${s.source}, ${s.model}, ${s.modelConfig}, ${s.systemPrompt}, ${s.parentSessionId}, ${s.startedAt})
          ON CONFLICT (namespace, id) DO UPDATE SET
            model = COALESCE(hermes_sessions.model, excluded.model),
            model_config = COALESCE(hermes_sessions.model_config, excluded.model_config),
            system_prompt = COALESCE(hermes_sessions.system_prompt, excluded.system_prompt),
            parent_session_id = COALESCE(hermes_sessions.parent_session_id, excluded.parent_session_id)`
  ).pipe(Effect.asVoid, Effect.orDie)

export const deleteSessionRow = (ns: string, id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DELETE FROM hermes_sessions WHERE namespace = ${ns} AND id = ${id}`).pipe(
    Effect.asVoid,
    Effect.orDie
  )

/** `end_session`: a no-op on a session that already ended, so the first end_reason wins. */
export const endSession = (ns: string, id: string, reason: string, now: number) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`UPDATE hermes_sessions SET ended_at = ${now}, end_reason = ${reason}
          WHERE namespace = ${ns} AND id = ${id} AND ended_at IS NULL`
  ).pipe(Effect.asVoid, Effect.orDie)

/** The first other session holding this exact title, in insertion order. */
export const titleHolder = (ns: string, title: string, exceptId: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<{ readonly id: string }>`SELECT id FROM hermes_sessions
        WHERE namespace = ${ns} AND title = ${title} AND id != ${exceptId} ORDER BY rowid LIMIT 1`
  ).pipe(
    Effect.map((rows) => rows[0]?.id),
    Effect.orDie
  )

export const writeTitle = (ns: string, id: string, title: string | null) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE hermes_sessions SET title = ${title} WHERE namespace = ${ns} AND id = ${id}`).pipe(
    Effect.asVoid,
    Effect.orDie
  )

/**
 * Whether `ancestorId` is a compression predecessor of `descendantId`: walking up parent links
 * through parents that ended with end_reason "compression".
 */
const isCompressionAncestor = (ns: string, ancestorId: string, descendantId: string) =>
  Effect.gen(() => walkCompressionParents(ns, ancestorId, descendantId))

function* walkCompressionParents(ns: string, ancestorId: string, descendantId: string) {
  if (ancestorId === descendantId) return false
  const seen = new Set<string>([descendantId])
  let current = yield* getSession(ns, descendantId)
  while (current?.parent_session_id !== null && current?.parent_session_id !== undefined) {
    const parent = yield* getSession(ns, current.parent_session_id)
    if (parent === undefined || parent.end_reason !== "compression" || seen.has(parent.id)) return false
    if (parent.id === ancestorId) return true
    seen.add(parent.id)
    current = parent
  }
  return false
}

/**
 * `set_session_title`: sanitize, refuse a title another session holds (unless that session is a
 * hidden compression ancestor, which hands the title over), then write. Left is the ValueError text.
 */
export const setSessionTitle = (ns: string, id: string, raw: string) => Effect.gen(() => claimTitle(ns, id, raw))

function* claimTitle(ns: string, id: string, raw: string) {
  const clean = sanitizeTitle(raw)
  if (Either.isLeft(clean)) return Either.left(clean.left)
  const title = clean.right
  if (title !== null) {
    const holder = yield* titleHolder(ns, title, id)
    if (holder !== undefined) {
      if (yield* isCompressionAncestor(ns, holder, id)) yield* writeTitle(ns, holder, null)
      else return Either.left(`Title '${title}' is already in use by session ${holder}`)
    }
  }
  yield* writeTitle(ns, id, title)
  return Either.right(title)
}

/** `delete_session`: children are orphaned, messages and the row go. False when there was no row. */
export const deleteSession = (ns: string, id: string) => Effect.gen(() => deleteInTransaction(ns, id)).pipe(Effect.orDie)

function* deleteInTransaction(ns: string, id: string) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(Effect.gen(() => orphanChildrenAndDelete(sql, ns, id)))
}

function* orphanChildrenAndDelete(sql: SqlClient.SqlClient, ns: string, id: string) {
  const existing = yield* getSession(ns, id)
  if (existing === undefined) return false
  yield* sql`UPDATE hermes_sessions SET parent_session_id = NULL WHERE namespace = ${ns} AND parent_session_id = ${id}`
  yield* sql`DELETE FROM hermes_messages WHERE namespace = ${ns} AND session_id = ${id}`
  yield* sql`DELETE FROM hermes_sessions WHERE namespace = ${ns} AND id = ${id}`
  return true
}

/** Active messages of one session in insertion order (`get_messages`), optionally one page. */
export const getMessages = (ns: string, sessionId: string, page?: { readonly limit: number; readonly offset: number }) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    page === undefined
      ? sql.unsafe<MessageRow>(
          `SELECT ${MESSAGE_COLUMNS} FROM hermes_messages WHERE namespace = ? AND session_id = ? AND active = 1 ORDER BY id`,
          [ns, sessionId]
        )
      : sql.unsafe<MessageRow>(
          `SELECT ${MESSAGE_COLUMNS} FROM hermes_messages WHERE namespace = ? AND session_id = ? AND active = 1 ORDER BY id LIMIT ? OFFSET ?`,
          [ns, sessionId, page.limit, page.offset]
        )
  ).pipe(Effect.orDie)

export const countMessages = (ns: string, sessionId: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<{ readonly n: number }>`SELECT COUNT(*) AS n FROM hermes_messages
        WHERE namespace = ${ns} AND session_id = ${sessionId} AND active = 1`
  ).pipe(
    Effect.map((rows) => rows[0]?.n ?? 0),
    Effect.orDie
  )

/** The next AUTOINCREMENT message id of this namespace's state.db. */
export const nextMessageId = (ns: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.gen(() => advanceMessageSeqByOne(sql, ns))).pipe(Effect.orDie)

function* advanceMessageSeqByOne(sql: SqlClient.SqlClient, ns: string) {
  yield* sql`INSERT INTO hermes_message_seq (namespace, last_id) VALUES (${ns}, 1)
             ON CONFLICT (namespace) DO UPDATE SET last_id = last_id + 1`
  const rows = yield* sql<{ readonly last_id: number }>`SELECT last_id FROM hermes_message_seq WHERE namespace = ${ns}`
  return rows[0]?.last_id ?? 1
}

export interface NewMessage {
  readonly role: string
  readonly content: string | null
  readonly toolCallId: string | null
  readonly toolCalls: string | null
  readonly toolName: string | null
  readonly timestamp: number
  readonly tokenCount: number | null
  readonly finishReason: string | null
  readonly reasoning: string | null
  readonly reasoningContent: string | null
}

export const insertMessage = (ns: string, sessionId: string, m: NewMessage) =>
  Effect.gen(() => insertMessageRow(ns, sessionId, m)).pipe(Effect.orDie)

function* insertMessageRow(ns: string, sessionId: string, m: NewMessage) {
  const sql = yield* SqlClient.SqlClient
  const id = yield* nextMessageId(ns)
  yield* sql`INSERT INTO hermes_messages (namespace, id, session_id, role, content, tool_call_id, tool_calls, tool_name,
               timestamp, token_count, finish_reason, reasoning, reasoning_content)
             VALUES (${ns}, ${id}, ${sessionId}, ${m.role}, ${m.content}, ${m.toolCallId}, ${m.toolCalls}, ${m.toolName},
               ${m.timestamp}, ${m.tokenCount}, ${m.finishReason}, ${m.reasoning}, ${m.reasoningContent})`
  return id
}

/** How many tool calls a stored tool_calls value counts for (a list counts its items, anything else 1). */
export const toolCallCountOf = (toolCalls: unknown): number =>
  toolCalls === null || toolCalls === undefined ? 0 : Array.isArray(toolCalls) ? toolCalls.length : 1
