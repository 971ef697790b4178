/**
 * The client-safe shapes the sessions API answers with (`_session_response`, `_message_response`):
 * a fixed key order, only keys the row has (list rows add last_active and preview), epoch seconds
 * and costs as Python floats, then whether a system prompt and a model config exist.
 */
import type { Features } from "../../version/Pins.js"
import { decodeContent, decodeJsonColumn } from "./MessageContent.js"
import type { MessageRow, RichSessionRow, SessionRow } from "./SessionRow.js"
import { PyFloat, pyTruthy } from "../../python/index.js"

const float = (v: number | null): PyFloat | null => (v === null ? null : new PyFloat(v))

const isRich = (row: SessionRow | RichSessionRow): row is RichSessionRow => "last_active" in row

export const sessionView = (row: SessionRow | RichSessionRow, features: Features): Record<string, unknown> => {
  const out: Record<string, unknown> = {
    id: row.id,
    source: row.source,
    user_id: row.user_id,
    model: row.model,
    title: row.title,
    started_at: new PyFloat(row.started_at),
    ended_at: float(row.ended_at),
    end_reason: row.end_reason,
    message_count: row.message_count,
    tool_call_count: row.tool_call_count,
    input_tokens: row.input_tokens,
    output_tokens: row.output_tokens,
    cache_read_tokens: row.cache_read_tokens,
    cache_write_tokens: row.cache_write_tokens,
    reasoning_tokens: row.reasoning_tokens,
    estimated_cost_usd: float(row.estimated_cost_usd),
    actual_cost_usd: float(row.actual_cost_usd),
    api_call_count: row.api_call_count,
    parent_session_id: row.parent_session_id
  }
  if (isRich(row)) {
    out["last_active"] = new PyFloat(row.last_active)
    out["preview"] = row.preview
    if (row.lineage_root_id !== undefined) out["_lineage_root_id"] = row.lineage_root_id
  }
  if (features.sessionFlags) {
    out["pinned"] = row.pinned !== 0
    out["archived"] = row.archived !== 0
    out["hidden"] = row.hidden !== 0
  }
  // bool() of each column: NULL and "" are both absent
  out["has_system_prompt"] = pyTruthy(row.system_prompt)
  out["has_model_config"] = pyTruthy(row.model_config)
  return out
}

/**
 * What the fork route answers when its fork was deleted before the read back: upstream falls back
 * to `{"id", "parent_session_id"}`, so only those two keys and the two flags (both false).
 */
export const vanishedForkView = (id: string, parentSessionId: string): Record<string, unknown> => ({
  id,
  parent_session_id: parentSessionId,
  has_system_prompt: false,
  has_model_config: false
})

export const messageView = (row: MessageRow): Record<string, unknown> => ({
  id: row.id,
  session_id: row.session_id,
  role: row.role,
  content: decodeContent(row.content),
  tool_call_id: row.tool_call_id,
  tool_calls: row.tool_calls === null || row.tool_calls === "" ? row.tool_calls : decodeJsonColumn(row.tool_calls),
  tool_name: row.tool_name,
  timestamp: new PyFloat(row.timestamp),
  token_count: row.token_count,
  finish_reason: row.finish_reason,
  reasoning: row.reasoning,
  reasoning_content: row.reasoning_content
})
