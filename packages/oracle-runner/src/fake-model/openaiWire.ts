/** OpenAI chat-completions wire shapes the fake model sends: SSE chunks and a whole completion (its error body is @hermetic/script's modelErrorBody). */
import { replyChunks, replyFinishReason, replyText, type Reply, toolArguments, type Usage } from "@hermetic/script"

/** Usage reported when a Script reply gives none: zero, so nothing looks like a real model's numbers. */
export const DEFAULT_USAGE: Usage = { prompt_tokens: 0, completion_tokens: 0 }



const usageOf = (reply: Reply) => {
  const u = reply.usage ?? DEFAULT_USAGE
  return { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens, total_tokens: u.prompt_tokens + u.completion_tokens }
}

type Envelope = { readonly id: string; readonly created: number; readonly model: string }

/** The `data:` payloads of one streamed reply, in order, ending with the literal "[DONE]". */
export const streamPayloads = (
  reply: Reply,
  env: Envelope,
  /** The reply's tool call ids (the Script player names them). */
  toolCallIds: ReadonlyArray<string>,
  includeUsage: boolean
): ReadonlyArray<string> => {
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    JSON.stringify({
      id: env.id,
      object: "chat.completion.chunk",
      created: env.created,
      model: env.model,
      choices: [{ index: 0, delta, finish_reason: finish }]
    })
  const out: Array<string> = [chunk({ role: "assistant", content: "" }, null)]
  if (reply.reasoning) out.push(chunk({ reasoning_content: reply.reasoning }, null))
  for (const c of replyChunks(reply)) out.push(chunk({ content: c }, null))
  ;(reply.toolCalls ?? []).forEach((tc, i) => {
    out.push(
      chunk(
        {
          tool_calls: [{ index: i, id: toolCallIds[i] ?? tc.id, type: "function", function: { name: tc.name, arguments: toolArguments(tc) } }]
        },
        null
      )
    )
  })
  out.push(chunk({}, replyFinishReason(reply)))
  if (includeUsage) {
    out.push(JSON.stringify({ id: env.id, object: "chat.completion.chunk", created: env.created, model: env.model, choices: [], usage: usageOf(reply) }))
  }
  out.push("[DONE]")
  return out
}

export const completionBody = (reply: Reply, env: Envelope, toolCallIds: ReadonlyArray<string>): Record<string, unknown> => {
  const toolCalls = (reply.toolCalls ?? []).map((tc, i) => ({
    id: toolCallIds[i] ?? tc.id,
    type: "function",
    function: { name: tc.name, arguments: toolArguments(tc) }
  }))
  const text = replyText(reply)
  return {
    id: env.id,
    object: "chat.completion",
    created: env.created,
    model: env.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: text === "" && toolCalls.length > 0 ? null : text,
          ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}),
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {})
        },
        finish_reason: replyFinishReason(reply)
      }
    ],
    usage: usageOf(reply)
  }
}
