/**
 * GatewayState.agentTurnInFlight counts an in-request agent turn against the concurrency cap while
 * it plays and stops counting however it ends: done, failed, or interrupted (an interruption skips
 * the turn's success and failure handlers; the fiber's end stops the count then).
 */
import { Deferred, Effect, Exit, Fiber } from "effect"
import { describe, expect, it } from "vitest"
import { GatewayState } from "../../src/services/GatewayProcess.js"

const fresh = () => new GatewayState(0, 0, 0, "test:0")

describe("an in-request agent turn in flight", () => {
  it("counts while it plays and stops when it is done", async () => {
    const gw = fresh()
    const seen = await Effect.runPromise(gw.agentTurnInFlight(Effect.sync(() => gw.activeAgentWorkCount())))
    expect(seen).toBe(1)
    expect(gw.activeAgentWorkCount()).toBe(0)
  })

  it("stops counting when the turn fails", async () => {
    const gw = fresh()
    const exit = await Effect.runPromiseExit(gw.agentTurnInFlight(Effect.fail("model error")))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(gw.activeAgentWorkCount()).toBe(0)
  })

  it("stops counting when the turn is interrupted while it waits", async () => {
    const gw = fresh()
    const waiting = await Effect.runPromise(
      Effect.gen(function*() {
        const started = yield* Deferred.make<void>()
        const fiber = yield* Effect.fork(gw.agentTurnInFlight(Deferred.succeed(started, undefined).pipe(Effect.zipRight(Effect.never))))
        yield* Deferred.await(started)
        const during = gw.activeAgentWorkCount()
        yield* Fiber.interrupt(fiber)
        return during
      })
    )
    expect(waiting).toBe(1)
    expect(gw.activeAgentWorkCount()).toBe(0)
  })

  it("counts two turns of one fiber one after the other, each once", async () => {
    const gw = fresh()
    const counts = await Effect.runPromise(
      Effect.gen(function*() {
        const first = yield* gw.agentTurnInFlight(Effect.sync(() => gw.activeAgentWorkCount()))
        const between = gw.activeAgentWorkCount()
        const second = yield* gw.agentTurnInFlight(Effect.sync(() => gw.activeAgentWorkCount()))
        return [first, between, second]
      })
    )
    expect(counts).toEqual([1, 0, 1])
    expect(gw.activeAgentWorkCount()).toBe(0)
  })
})
