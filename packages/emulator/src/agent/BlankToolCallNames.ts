/**
 * The last repair Hermes' pre-call sanitizer (`sanitize_api_messages`) makes before every model
 * call: an assistant tool call whose function name is empty or only whitespace gets a sentinel
 * name, so the call and the rejection result it was answered with stay paired. The rename is made
 * on the function dicts the transcript shares, so the stored turn carries the sentinel from the
 * next model call on (observed live on 0.19.0: `GET /api/sessions/{id}/messages`).
 */
import { isDict, pyStrip } from "../python/index.js"
import type { AgentMessage } from "./AgentMessages.js"

export const BLANK_TOOL_NAME_SENTINEL = "invalid_tool_call"

/** Renames, in place, every blank tool-call name in the assistant messages. */
export const renameBlankToolCalls = (messages: ReadonlyArray<AgentMessage>): void => {
  for (const message of messages) {
    const calls = message["tool_calls"]
    if (message["role"] !== "assistant" || !Array.isArray(calls)) continue
    for (const call of calls as Array<unknown>) {
      if (!isDict(call)) continue
      const fn = call["function"]
      if (!isDict(fn)) {
        call["function"] = { name: BLANK_TOOL_NAME_SENTINEL, arguments: "{}" }
        continue
      }
      const name = fn["name"]
      if (typeof name !== "string" || pyStrip(name) === "") fn["name"] = BLANK_TOOL_NAME_SENTINEL
    }
  }
}
