/**
 * The frames of a queue with upstream's 30 s keepalive (http/SseKeepalive.ts), the stream run
 * events and session chat write: driven with Effect's TestClock, so 30 s need no waiting.
 */
import { it } from "@effect/vitest"
import { Effect, Fiber, Queue, Stream, TestClock } from "effect"
import { expect } from "vitest"
import { KEEPALIVE_FRAME, keepaliveFrames } from "../../src/http/SseKeepalive.js"

const play = (closing: string | undefined) =>
  Effect.gen(function*() {
    const queue = yield* Queue.unbounded<number | null>()
    const fiber = yield* Stream.runCollect(keepaliveFrames(queue, (n) => `data: ${n}\n\n`, closing)).pipe(Effect.fork)
    yield* Queue.offer(queue, 1)
    yield* Effect.yieldNow()
    yield* TestClock.adjust("29 seconds")
    yield* Queue.offer(queue, 2)
    yield* Effect.yieldNow()
    // 30 s from the last item, not from the first
    yield* TestClock.adjust("30 seconds")
    yield* Queue.offer(queue, null)
    return [...(yield* Fiber.join(fiber))]
  })

it.effect("items rendered, a keepalive after 30 s without one (counted from the last), then the end", () =>
  Effect.gen(function*() {
    expect(yield* play(undefined)).toEqual(["data: 1\n\n", "data: 2\n\n", KEEPALIVE_FRAME])
  }))

it.effect("a closing frame, when given, is the last", () =>
  Effect.gen(function*() {
    expect(yield* play(": stream closed\n\n")).toEqual(["data: 1\n\n", "data: 2\n\n", KEEPALIVE_FRAME, ": stream closed\n\n"])
  }))
