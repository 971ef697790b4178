/**
 * What a /v1/runs run leaves in state.db: the same agent-turn record as every other route, under
 * the run's session id (body session_id, a chained response's session, or the run id itself). The
 * run executor plays the Script itself, so its transcript is rebuilt here from the replies it
 * played, with the tool-less gateway's answer to each tool call (as the shared agent loop has it).
 * A run stopped before its turn settled records only the user's message (inferred: upstream
 * flushes what the interrupted agent had).
 */
import { Effect } from "effect"
import { pyStr } from "../http/PyStr.js"
import { type Reply, replyText, type ToolCall, type Turn } from "../script/Script.js"
import type { RunSpec, TurnOutcome } from "../runs/RunExecutor.js"
import { recordAgentTurn, type TurnMessage } from "./AgentTurnRecord.js"
import { answeredCalls } from "./TurnMessages.js"

const toolArguments = (call: ToolCall): string =>
  call.arguments === undefined ? "{}" : typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments)

/** The Responses-style item id Hermes derives from a call id ("call_X" → "fc_X"). */
export const responseItemId = (callId: string): string =>
  callId.startsWith("fc_") ? callId : callId.startsWith("call_") && callId.length > 5 ? `fc_${callId.slice(5)}` : `fc_${callId.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 48)}`

export const replyMessages = (replies: ReadonlyArray<Reply>): Array<TurnMessage> => {
  const out: Array<TurnMessage> = []
  replies.forEach((reply, n) => {
    const calls = reply.toolCalls ?? []
    if (calls.length === 0) {
      out.push({ role: "assistant", content: replyText(reply), reasoning: reply.reasoning ?? null, finish_reason: "stop" })
      return
    }
    const ids = calls.map((call, i) => call.id ?? `call_hermetic_${n + 1}_${i}`)
    out.push({
      role: "assistant",
      content: replyText(reply),
      reasoning: reply.reasoning ?? null,
      finish_reason: "tool_calls",
      tool_calls: calls.map((call, i) => ({
        id: ids[i],
        call_id: ids[i],
        response_item_id: responseItemId(ids[i] ?? ""),
        type: "function",
        function: { name: call.name, arguments: toolArguments(call) }
      }))
    })
    calls.forEach((call, i) =>
      out.push({ role: "tool", tool_call_id: ids[i], content: `Tool '${call.name}' does not exist. Available tools: ` })
    )
  })
  return out
}

export const recordRunTurn = (spec: RunSpec, turn: Turn, outcome: TurnOutcome) =>
  Effect.suspend(() => {
    const record = spec.gateway.runStatuses.get(spec.runId)
    const sessionId = pyStr(record?.["session_id"] ?? spec.runId)
    const played = outcome.interrupted
      ? []
      : turn.replies.slice(0, outcome.failed ? turn.replies.findIndex((r) => r.error !== undefined) : turn.replies.length)
    const replies = replyMessages(played.filter((r) => r.error === undefined))
    const messages: Array<TurnMessage> = [{ role: "user", content: spec.userMessage ?? "" }, ...replies]
    return recordAgentTurn(spec.namespace, {
      sessionId,
      messages,
      calls: answeredCalls(messages, outcome.usage),
      now: spec.now()
    })
  })
