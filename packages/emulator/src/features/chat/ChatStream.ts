/**
 * The SSE body of a streamed chat completion, frame for frame as 0.19.0 writes it (observed live):
 * the role chunk at once; one `chat.completion.chunk` per text delta and one named
 * `event: hermes.tool.progress` frame per tool lifecycle event, in the order the agent produced
 * them; `: keepalive` after 30 s without a frame; then the finish chunk with usage (plus `error`
 * and `hermes` when the turn did not end with "stop") and `data: [DONE]`.
 */
import { KEEPALIVE_FRAME } from "../../http/SseKeepalive.js"
import { Deferred, type Duration, Effect, Option, Queue, Stream } from "effect"
import type { AgentTurnResult } from "../../agent/AgentLoop.js"
import { finishReasonOf, hermesBlock, usageBody } from "./ChatOutcome.js"
import { pyDumps } from "../../python/index.js"

export type StreamItem =
  | { readonly _tag: "delta"; readonly text: string }
  | { readonly _tag: "tool"; readonly payload: Readonly<Record<string, unknown>> }

export interface ChunkEnvelope {
  readonly id: string
  readonly created: number
  readonly model: unknown
}

export const DONE_FRAME = "data: [DONE]\n\n"

const chunk = (env: ChunkEnvelope, delta: Record<string, unknown>, finish: string | null) => ({
  id: env.id,
  object: "chat.completion.chunk",
  created: env.created,
  model: env.model,
  choices: [{ index: 0, delta, finish_reason: finish }]
})

const data = (value: unknown): string => `data: ${pyDumps(value)}\n\n`

export const roleFrame = (env: ChunkEnvelope): string => data(chunk(env, { role: "assistant" }, null))

export const itemFrame = (env: ChunkEnvelope, item: StreamItem): string =>
  item._tag === "delta"
    ? data(chunk(env, { content: item.text }, null))
    : `event: hermes.tool.progress\ndata: ${pyDumps(item.payload)}\n\n`

export const finishFrame = (env: ChunkEnvelope, result: AgentTurnResult): string => {
  const finish = finishReasonOf(result)
  const body: Record<string, unknown> = { ...chunk(env, {}, finish), usage: usageBody(result) }
  if (finish !== "stop") {
    if (result.error !== undefined && result.error !== "") body["error"] = { message: result.error, type: "agent_error" }
    body["hermes"] = hermesBlock(result, finish)
  }
  return data(body)
}

type Phase = "role" | "items" | "done" | "end"

/**
 * The frames of one streamed completion. `items` ends with `null` when the agent is done;
 * `result` then holds its outcome. The stream ends early when the client goes away.
 */
export const chatStreamFrames = (
  env: ChunkEnvelope,
  items: Queue.Queue<StreamItem | null>,
  result: Deferred.Deferred<AgentTurnResult>,
  keepaliveAfter: Duration.DurationInput
): Stream.Stream<string> =>
  Stream.unfoldEffect<Phase, string, never, never>("role", (phase) => {
    switch (phase) {
      case "role":
        return Effect.succeed(Option.some([roleFrame(env), "items"] as const))
      case "items":
        return Queue.take(items).pipe(
          Effect.timeoutOption(keepaliveAfter),
          Effect.flatMap((next) =>
            Option.match(next, {
              onNone: () => Effect.succeed(Option.some([KEEPALIVE_FRAME, "items" as Phase] as const)),
              onSome: (item) =>
                item === null
                  ? Effect.map(Deferred.await(result), (r) => Option.some([finishFrame(env, r), "done" as Phase] as const))
                  : Effect.succeed(Option.some([itemFrame(env, item), "items" as Phase] as const))
            })
          )
        )
      case "done":
        return Effect.succeed(Option.some([DONE_FRAME, "end"] as const))
      default:
        return Effect.succeed(Option.none())
    }
  })
