/**
 * From the agent's transcript to what the Responses API answers and stores: the output items and
 * the history kept for chaining. Where the turn starts in the transcript is agent/TurnBoundary.ts.
 */
import type { AgentTurnResult } from "../../agent/AgentLoop.js"
import type { AgentMessage } from "../../agent/AgentMessages.js"
import { turnStartIndex } from "../../agent/TurnBoundary.js"
import type { IdsShape } from "../../services/Ids.js"
import type { Features } from "../../version/Pins.js"
import { isDict } from "../../python/index.js"

const userMessageOf = (content: unknown): AgentMessage => ({ role: "user", content })

/** `_build_response_conversation_history`: the transcript stored with the response. */
export const storedHistory = (
  features: Features,
  history: ReadonlyArray<AgentMessage>,
  userMessage: unknown,
  result: AgentTurnResult,
  finalResponse: string
): Array<AgentMessage> => {
  const messages = result.messages
  if (messages.length > 0) {
    if (features.responsesTurnBoundary === "current-turn") return [...messages]
    if (turnStartIndex(features, history, userMessage, result) > 0) return [...messages]
    return [...history, userMessageOf(userMessage), ...messages]
  }
  return [...history, userMessageOf(userMessage), { role: "assistant", content: finalResponse }]
}

/** The final text: the agent's answer, else its error, else upstream's placeholder. */
export const finalTextOf = (result: AgentTurnResult): string =>
  result.finalResponse !== "" ? result.finalResponse : result.error ?? "(No response generated)"

/** A `message` output item carrying the assistant text. */
export const messageItem = (text: string) => ({
  type: "message",
  role: "assistant",
  content: [{ type: "output_text", text }]
})

const field = (o: unknown, key: string, fallback: unknown): unknown =>
  isDict(o) && key in o ? o[key] : fallback

/** `_extract_output_items`: tool calls and results from `start` on, then the final message. */
export const outputItems = (
  features: Features,
  ids: IdsShape,
  result: AgentTurnResult,
  start: number
): Array<Record<string, unknown>> => {
  const items: Array<Record<string, unknown>> = []
  const withId = (prefix: string, item: Record<string, unknown>) =>
    features.responsesOutputItemIds ? { id: `${prefix}_${ids.hex(24)}`, ...item } : item
  for (const msg of result.messages.slice(start)) {
    const role = msg["role"]
    const calls = msg["tool_calls"]
    if (role === "assistant" && Array.isArray(calls) && calls.length > 0) {
      for (const tc of calls as Array<unknown>) {
        const fn = field(tc, "function", {})
        const base = features.responsesOutputItemIds
          ? { type: "function_call", status: "completed" }
          : { type: "function_call" }
        items.push(
          withId("fc", {
            ...base,
            name: field(fn, "name", ""),
            arguments: field(fn, "arguments", ""),
            call_id: field(tc, "id", "")
          })
        )
      }
    } else if (role === "tool") {
      const base = features.responsesOutputItemIds
        ? { type: "function_call_output", status: "completed" }
        : { type: "function_call_output" }
      items.push(
        withId("fco", { ...base, call_id: field(msg, "tool_call_id", ""), output: field(msg, "content", "") })
      )
    }
  }
  items.push(messageItem(finalTextOf(result)))
  return items
}
