/**
 * `replace_messages` as the fork uses it: the target's messages become a copy of the source's
 * active ones, with fresh ids, the original timestamps, reasoning kept only on assistant rows, and
 * the target's counters recomputed from the copy.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { decodeJsonColumn } from "./MessageContent.js"
import { getMessages, insertMessage, toolCallCountOf } from "./SessionStore.js"
import { pyDumps, pyTruthy } from "../../python/index.js"

export const copyMessages = (ns: string, fromId: string, toId: string) =>
  Effect.gen(() => replaceMessagesWithCopy(ns, fromId, toId))

function* replaceMessagesWithCopy(ns: string, fromId: string, toId: string) {
  const sql = yield* SqlClient.SqlClient
  const messages = yield* getMessages(ns, fromId)
  yield* sql`DELETE FROM hermes_messages WHERE namespace = ${ns} AND session_id = ${toId}`.pipe(Effect.orDie)
  let toolCalls = 0
  for (const m of messages) {
    const calls = m.tool_calls === null || m.tool_calls === "" ? null : decodeJsonColumn(m.tool_calls)
    yield* insertMessage(ns, toId, {
      role: m.role,
      content: m.content,
      toolCallId: m.tool_call_id,
      toolCalls: pyTruthy(calls) ? pyDumps(calls) : null,
      toolName: m.tool_name,
      timestamp: m.timestamp,
      tokenCount: m.token_count,
      finishReason: m.finish_reason,
      reasoning: m.role === "assistant" ? m.reasoning : null,
      reasoningContent: m.role === "assistant" ? m.reasoning_content : null
    })
    toolCalls += toolCallCountOf(calls)
  }
  yield* sql`UPDATE hermes_sessions SET message_count = ${messages.length}, tool_call_count = ${toolCalls}
             WHERE namespace = ${ns} AND id = ${toId}`.pipe(Effect.orDie)
}
