/**
 * One row of the emulated state.db `sessions` / `messages` tables, as the store reads them back.
 * Numbers that Python holds as floats (epoch seconds, costs) are plain numbers here; the views wrap
 * them in PyFloat on the way out.
 */
export interface SessionRow {
  readonly id: string
  readonly source: string
  readonly user_id: string | null
  readonly model: string | null
  readonly model_config: string | null
  readonly system_prompt: string | null
  readonly parent_session_id: string | null
  readonly started_at: number
  readonly ended_at: number | null
  readonly end_reason: string | null
  readonly message_count: number
  readonly tool_call_count: number
  readonly input_tokens: number
  readonly output_tokens: number
  readonly cache_read_tokens: number
  readonly cache_write_tokens: number
  readonly reasoning_tokens: number
  readonly estimated_cost_usd: number | null
  readonly actual_cost_usd: number | null
  readonly title: string | null
  readonly api_call_count: number
  readonly pinned: number
  readonly archived: number
  readonly hidden: number
  readonly unread: number
}

/** What list_sessions_rich adds to a row. */
export interface RichSessionRow extends SessionRow {
  readonly last_active: number
  readonly preview: string
  /** Set when a compression root is projected forward to its tip. */
  readonly lineage_root_id?: string
}

export interface MessageRow {
  readonly id: number
  readonly session_id: string
  readonly role: string
  /** Stored form: text, or the JSON sentinel form for structured content (see MessageContent). */
  readonly content: string | null
  readonly tool_call_id: string | null
  /** JSON text of the tool calls list, or null. */
  readonly tool_calls: string | null
  readonly tool_name: string | null
  readonly timestamp: number
  readonly token_count: number | null
  readonly finish_reason: string | null
  readonly reasoning: string | null
  readonly reasoning_content: string | null
}

export const SESSION_COLUMNS =
  "id, source, user_id, model, model_config, system_prompt, parent_session_id, started_at, ended_at, end_reason, " +
  "message_count, tool_call_count, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, " +
  "reasoning_tokens, estimated_cost_usd, actual_cost_usd, title, api_call_count, pinned, archived, hidden, unread"

export const MESSAGE_COLUMNS =
  "id, session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp, token_count, finish_reason, " +
  "reasoning, reasoning_content"
