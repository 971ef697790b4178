/**
 * From an agent turn's transcript to what the session chat stream shows: the client-safe
 * assistant/tool messages that run.completed carries (`_message_response` keys, in that fixed order).
 */
import type { TurnMessage } from "./AgentTurnRecord.js"

const SAFE_KEYS = [
  "id",
  "session_id",
  "role",
  "content",
  "tool_call_id",
  "tool_calls",
  "tool_name",
  "timestamp",
  "token_count",
  "finish_reason",
  "reasoning",
  "reasoning_content"
] as const

export const clientSafeMessage = (m: TurnMessage): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const key of SAFE_KEYS) if (key in m) out[key] = m[key]
  return out
}

/** run.completed's `messages`: the turn's assistant and tool messages. */
export const assistantAndToolMessages = (turn: ReadonlyArray<TurnMessage>): Array<Record<string, unknown>> =>
  turn.filter((m) => m["role"] === "assistant" || m["role"] === "tool").map(clientSafeMessage)
