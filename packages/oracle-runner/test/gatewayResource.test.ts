import { Effect, Exit, Cause, Option } from "effect"
import { describe, expect, it } from "vitest"
import { PinUnavailable } from "../src/errors.js"
import { scopedGateway, withGateway } from "../src/gateway/GatewayResource.js"

describe("gateway as a resource", () => {
  it("fails with a typed PinUnavailable (no Python started) for a pin that is not obtainable", async () => {
    const exit = await Effect.runPromiseExit(Effect.scoped(scopedGateway({ pin: "0.21.0" })))
    expect(Exit.isFailure(exit)).toBe(true)
    if (Exit.isFailure(exit)) {
      const err = Option.getOrUndefined(Cause.failureOption(exit.cause))
      expect(err).toBeInstanceOf(PinUnavailable)
      expect((err as PinUnavailable).pin).toBe("0.21.0")
    }
  })

  it("the Promise wrapper rejects the same way and never calls the body", async () => {
    let called = false
    await expect(
      withGateway({ pin: "9.9.9" }, async () => {
        called = true
      })
    ).rejects.toBeInstanceOf(PinUnavailable)
    expect(called).toBe(false)
  })
})
