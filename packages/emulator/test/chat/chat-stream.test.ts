/** The chat SSE frame sequence, driven with Effect's TestClock so the 30 s keepalive needs no waiting. */
import { it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Queue, Stream, TestClock } from "effect"
import { expect } from "vitest"
import type { AgentTurnResult } from "../../src/agent/AgentLoop.js"
import { chatStreamFrames, DONE_FRAME, type StreamItem } from "../../src/features/chat/ChatStream.js"
import { KEEPALIVE_AFTER, KEEPALIVE_FRAME } from "../../src/http/SseKeepalive.js"

const env = { id: "chatcmpl-x", created: 7, model: "m" }
const result = (fields: Partial<AgentTurnResult> = {}): AgentTurnResult => ({
  finalResponse: "ok",
  messages: [],
  turnStart: 0,
  error: undefined,
  completed: true,
  partial: false,
  failed: false,
  usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
  ...fields
})

const play = (after: (items: Queue.Queue<StreamItem | null>) => Effect.Effect<void>, outcome: AgentTurnResult) =>
  Effect.gen(function*() {
    const items = yield* Queue.unbounded<StreamItem | null>()
    const done = yield* Deferred.make<AgentTurnResult>()
    const fiber = yield* Stream.runCollect(chatStreamFrames(env, items, done, KEEPALIVE_AFTER)).pipe(Effect.fork)
    yield* after(items)
    yield* Deferred.succeed(done, outcome)
    yield* Queue.offer(items, null)
    return [...(yield* Fiber.join(fiber))]
  })

it.effect("a keepalive comment after 30 s of silence, none before", () =>
  Effect.gen(function*() {
    const frames = yield* play(
      (items) =>
        Effect.gen(function*() {
          yield* Effect.yieldNow()
          yield* TestClock.adjust("29 seconds")
          yield* Queue.offer(items, { _tag: "delta", text: "a" })
          yield* Effect.yieldNow()
          yield* TestClock.adjust("30 seconds")
          yield* Effect.yieldNow()
          yield* Queue.offer(items, { _tag: "tool", payload: { tool: "todo", toolCallId: "c1", status: "completed" } })
        }),
      result()
    )
    expect(frames.map((f) => f.slice(0, 40))).toEqual([
      'data: {"id": "chatcmpl-x", "object": "ch',
      'data: {"id": "chatcmpl-x", "object": "ch',
      KEEPALIVE_FRAME,
      'event: hermes.tool.progress\ndata: {"tool',
      'data: {"id": "chatcmpl-x", "object": "ch',
      DONE_FRAME
    ])
    expect(frames[3]).toBe('event: hermes.tool.progress\ndata: {"tool": "todo", "toolCallId": "c1", "status": "completed"}\n\n')
    expect(frames[4]).toBe(
      'data: {"id": "chatcmpl-x", "object": "chat.completion.chunk", "created": 7, "model": "m", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}}\n\n'
    )
  }))

it.effect("a truncated turn finishes with length, its error and the hermes block", () =>
  Effect.gen(function*() {
    const frames = yield* play(() => Effect.void, result({ partial: true, completed: false, error: "Response truncated by the model" }))
    const finish = JSON.parse(frames[1]?.slice(6) ?? "{}") as Record<string, unknown>
    expect((finish["choices"] as Array<{ finish_reason: string }>)[0]?.finish_reason).toBe("length")
    expect(finish["error"]).toEqual({ message: "Response truncated by the model", type: "agent_error" })
    expect(finish["hermes"]).toEqual({
      completed: false,
      partial: true,
      failed: false,
      error: "Response truncated by the model",
      error_code: "output_truncated"
    })
  }))
