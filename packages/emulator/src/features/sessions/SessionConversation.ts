/**
 * A session's stored messages as the gateway hands them to the agent as history
 * (`get_messages_as_conversation`): active rows in insertion order, each a fresh dict with role
 * and content (user and assistant text stripped) plus only the columns that hold a value —
 * timestamp, tool_call_id, tool_name, tool_calls (decoded), and on assistant messages
 * finish_reason, reasoning and reasoning_content. A session chat turn plays on it (the model
 * sees the earlier turns), and the chat stream reports run.completed's messages as upstream finds
 * them in it (see `turnReportedMessages`).
 */
import { Effect } from "effect"
import { type AgentMessage, repairMessageSequence } from "../../agent/AgentMessages.js"
import { turnStartIndex } from "../../agent/TurnBoundary.js"
import { PyFloat, pyStrip } from "../../python/index.js"
import type { Features } from "../../version/Pins.js"
import { decodeContent, decodeJsonColumn } from "./MessageContent.js"
import type { MessageRow } from "./SessionRow.js"
import { getMessages } from "./SessionStore.js"

const conversationMessage = (row: MessageRow): AgentMessage => {
  const decoded = decodeContent(row.content)
  // sanitize_context also drops memory-context blocks, which no emulated reply carries: strip is all that is left
  const content = (row.role === "user" || row.role === "assistant") && typeof decoded === "string" ? pyStrip(decoded) : decoded
  const m: AgentMessage = { role: row.role, content }
  if (row.timestamp) m["timestamp"] = new PyFloat(row.timestamp)
  if (row.tool_call_id) m["tool_call_id"] = row.tool_call_id
  if (row.tool_name) m["tool_name"] = row.tool_name
  if (row.tool_calls) m["tool_calls"] = decodeJsonColumn(row.tool_calls)
  if (row.role === "assistant") {
    if (row.finish_reason) m["finish_reason"] = row.finish_reason
    if (row.reasoning) m["reasoning"] = row.reasoning
    if (row.reasoning_content !== null) m["reasoning_content"] = row.reasoning_content
  }
  return m
}

/** The session's history as the agent would receive it. */
export const sessionConversation = (ns: string, sessionId: string) =>
  Effect.map(getMessages(ns, sessionId), (rows) => rows.map(conversationMessage))

/**
 * The messages run.completed reports for a turn: upstream's agent works on `history` (the dicts
 * themselves) plus the user message, repairing that list in place before its first model call —
 * a history with two user messages in a row (a failed turn stores no reply) is merged, which
 * rewrites the history dict too. The turn boundary is then looked up by value (TurnBoundary.ts); when
 * the repaired transcript no longer starts with the history, the boundary is 0 and every assistant
 * and tool message of the whole session counts as the turn's (observed live on 0.19.0).
 * `played` is the turn as the emulator's agent played it, without history: the user message, then
 * its replies.
 */
export const turnReportedMessages = (
  features: Features,
  history: ReadonlyArray<AgentMessage>,
  userMessage: unknown,
  played: ReadonlyArray<AgentMessage>
): ReadonlyArray<AgentMessage> => {
  const transcript: Array<AgentMessage> = [...history, ...played.slice(0, 1)]
  repairMessageSequence(transcript)
  const turnStart = transcript.length
  transcript.push(...played.slice(1))
  return transcript.slice(turnStartIndex(features, history, userMessage, { messages: transcript, turnStart }))
}
