/**
 * What Hermes' agent writes to state.db at one persistence point of a turn, whichever route ran
 * it (chat completions, responses, runs, session chat, cron): the session row (created on first
 * use with source "api_server", or enriched where still empty), its system prompt snapshot, the
 * messages not written before, or the token counters of one answered model call (the first
 * accounted call also pins sessions.model to the agent's model; a reply cut by the length limit is
 * not accounted, an empty one is). The agent writes at turn start
 * (the user's message, before the first model call), before a round's tools run, after each tool
 * result and at the turn's end, so a held or approval-waiting turn is already visible and its
 * message ids come before those of a turn that finishes meanwhile (ids are one sequence per
 * state.db). A turn whose model call failed leaves only the user's message. History a client sent
 * along is not written: the agent treats it as already persisted.
 *
 * The session row is made at the turn start only (`_ensure_db_session`) and by an answered call's
 * token write (`update_token_counts` inserts a bare row: source "unknown", the call's model, no
 * system prompt or model config). Messages are written one by one, each its own statement: one
 * whose content state.db refuses (FlushedContent.ts) or whose session row is gone (a foreign key)
 * fails, and the flush stops there; the write answers how many went in. Observed on the real
 * 0.19.0 gateway: see evidence/cassette-sources/live/sessions-jobs-0.19.0.md,
 * evidence/live-comparisons/turn-start-persistence/ and
 * evidence/live-comparisons/unbindable-content-parts-deleted-session/.
 */
import { Effect } from "effect"
import { AGENT_MODEL, AGENT_MODEL_CONFIG, AGENT_SYSTEM_PROMPT_STANDIN } from "../../agent/AgentIdentity.js"
import { encodeContent } from "./MessageContent.js"
import { flushedContent, REFUSED } from "./FlushedContent.js"
import { replaceLoneSurrogates } from "./SessionTitle.js"
import { Storage } from "../../services/Storage.js"
import { toolCallCountOf } from "./SessionStore.js"
import { pyDumps, pyStr, pyTruthy, pyUtf8Encodable } from "../../python/index.js"

/** One message of the turn as the agent holds it (OpenAI chat shape plus Hermes' extras). */
export type TurnMessage = Readonly<Record<string, unknown>>

export interface AgentTurnRecord {
  /** The session the agent ran under (a derived, named, or run id). */
  readonly sessionId: string
  /** The messages to write, in order (none: the write only makes sure of the session row). */
  readonly messages: ReadonlyArray<TurnMessage>
  /** Answered model calls this write accounts for: added to api_call_count. */
  readonly answeredCalls: number
  /** The tokens of those calls. */
  readonly tokens: { readonly input_tokens: number; readonly output_tokens: number }
  /** The turn-start write, which makes sure of the session row (TranscriptWrite.opensSession). */
  readonly opensSession: boolean
  /** Session source; "api_server" for every API route, "cron" for scheduled jobs (SessionTranscript gives it). */
  readonly source: string
  readonly now: number
}

const text = (v: unknown): string | null => (v === null || v === undefined ? null : replaceLoneSurrogates(pyStr(v)))

/** One message as its hermes_messages row (without id) and the tool calls it counts for; undefined when state.db refuses it. */
const messageRow = (sessionId: string, m: TurnMessage, now: number) => {
  const calls = m["tool_calls"]
  const content = flushedContent(m["content"])
  if (content === REFUSED) return undefined
  return {
    row: {
      session_id: sessionId,
      role: typeof m["role"] === "string" ? m["role"] : "unknown",
      content: typeof content === "string" ? replaceLoneSurrogates(content) : encodeContent(content),
      tool_call_id: text(m["tool_call_id"]),
      tool_calls: pyTruthy(calls) ? pyDumps(calls) : null,
      tool_name: text(m["tool_name"]),
      timestamp: now,
      token_count: null,
      finish_reason: text(m["finish_reason"]),
      reasoning: text(m["reasoning"]),
      reasoning_content: text(m["reasoning_content"])
    },
    toolCalls: calls === null || calls === undefined ? 0 : toolCallCountOf(calls)
  }
}

const UPSERT_SESSION = `INSERT INTO hermes_sessions (namespace, id, source, model, model_config, system_prompt, parent_session_id, started_at)
  VALUES (?, ?, ?, ?, ?, ?, NULL, ?)
  ON CONFLICT (namespace, id) DO UPDATE SET
    model = COALESCE(hermes_sessions.model, excluded.model),
    model_config = COALESCE(hermes_sessions.model_config, excluded.model_config),
    system_prompt = excluded.system_prompt`
// update_token_counts' `_insert_session_row(session_id, "unknown", model=model)`: a bare row, or the model backfilled
const TOKEN_WRITE_SESSION = `INSERT INTO hermes_sessions (namespace, id, source, model, started_at) VALUES (?, ?, 'unknown', ?, ?)
  ON CONFLICT (namespace, id) DO UPDATE SET model = COALESCE(hermes_sessions.model, excluded.model)`
const SESSION_EXISTS = `SELECT 1 AS found FROM hermes_sessions WHERE namespace = ? AND id = ?`
const RESERVE_IDS = `INSERT INTO hermes_message_seq (namespace, last_id) VALUES (?, ?)
  ON CONFLICT (namespace) DO UPDATE SET last_id = last_id + excluded.last_id`
const LAST_ID = `SELECT last_id FROM hermes_message_seq WHERE namespace = ?`
const MESSAGE_COLUMNS = [
  "namespace", "id", "session_id", "role", "content", "tool_call_id", "tool_calls", "tool_name",
  "timestamp", "token_count", "finish_reason", "reasoning", "reasoning_content"
] as const
// the multi-row insert for each row count, built once (the statement cache is keyed by its text)
const insertSql = new Map<number, string>()
const insertMessages = (count: number): string => {
  let sql = insertSql.get(count)
  if (sql === undefined) {
    sql = `INSERT INTO hermes_messages (${MESSAGE_COLUMNS.join(", ")}) VALUES ${
      Array.from({ length: count }, () => `(${MESSAGE_COLUMNS.map(() => "?").join(", ")})`).join(", ")
    }`
    if (insertSql.size < 64) insertSql.set(count, sql)
  }
  return sql
}
// the first accounted call of a session records the agent's model (api_call_count is read before the update)
const COUNT_TURN = `UPDATE hermes_sessions SET
    message_count = message_count + @messages,
    tool_call_count = tool_call_count + @toolCalls,
    input_tokens = input_tokens + @input,
    output_tokens = output_tokens + @output,
    estimated_cost_usd = CASE WHEN @calls > 0 THEN COALESCE(estimated_cost_usd, 0) + 0.0 ELSE estimated_cost_usd END,
    model = CASE WHEN @calls = 0 THEN model WHEN api_call_count = 0 THEN @model ELSE COALESCE(model, @model) END,
    api_call_count = api_call_count + @calls
  WHERE namespace = @namespace AND id = @sessionId`

/** The rows written before the first one state.db refuses. */
const writableRows = (turn: AgentTurnRecord) => {
  const rows: Array<NonNullable<ReturnType<typeof messageRow>>> = []
  for (const m of turn.messages) {
    const row = messageRow(turn.sessionId, m, turn.now)
    if (row === undefined) break
    rows.push(row)
  }
  return rows
}

/** Writes the turn's rows; answers how many of `turn.messages` went in (the rest failed, as upstream's flush stops). */
export const recordAgentTurn = (ns: string, turn: AgentTurnRecord): Effect.Effect<number, never, Storage> =>
  // state.db's sqlite3 binding cannot encode a lone surrogate (a session id from header bytes that are
  // not UTF-8): every write under that id fails and the turn goes on, leaving nothing stored
  !pyUtf8Encodable(turn.sessionId) ? Effect.succeed(0) : Effect.flatMap(Storage, (storage) => {
    // the same end state as writing message by message, in a handful of statements: the session row,
    // one block of message ids, one multi-row insert, one update of the counters
    let rows = writableRows(turn)
    return storage.transaction(() => {
      if (turn.opensSession) {
        storage.statement(UPSERT_SESSION).run(
          ns, turn.sessionId, turn.source, AGENT_MODEL, AGENT_MODEL_CONFIG, AGENT_SYSTEM_PROMPT_STANDIN, turn.now
        )
      }
      if (turn.answeredCalls > 0) storage.statement(TOKEN_WRITE_SESSION).run(ns, turn.sessionId, AGENT_MODEL, turn.now)
      // a message of a session deleted mid-turn fails its foreign key: none goes in
      if (rows.length > 0 && !turn.opensSession && storage.statement(SESSION_EXISTS).get(ns, turn.sessionId) === undefined) rows = []
      const toolCalls = rows.reduce((n, r) => n + r.toolCalls, 0)
      if (rows.length > 0) {
        storage.statement(RESERVE_IDS).run(ns, rows.length)
        const last = (storage.statement(LAST_ID).get(ns) as { readonly last_id: number }).last_id
        const first = last - rows.length + 1
        // a plain loop: Array.prototype.flatMap cost ~3 µs for two rows
        const params: Array<unknown> = []
        for (let i = 0; i < rows.length; i++) {
          const { row } = rows[i]!
          params.push(
            ns, first + i, row.session_id, row.role, row.content, row.tool_call_id, row.tool_calls, row.tool_name,
            row.timestamp, row.token_count, row.finish_reason, row.reasoning, row.reasoning_content
          )
        }
        storage.statement(insertMessages(rows.length)).run(params)
      }
      storage.statement(COUNT_TURN).run({
        messages: rows.length,
        toolCalls,
        input: turn.tokens.input_tokens,
        output: turn.tokens.output_tokens,
        calls: turn.answeredCalls,
        model: AGENT_MODEL,
        namespace: ns,
        sessionId: turn.sessionId
      })
      return rows.length
    })
  })
