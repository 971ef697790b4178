/**
 * A connection reset under a request to the real gateway: a GET is sent again, anything else is the
 * oracle failing; an emulator's reset is recorded as its behaviour, never retried.
 */
import { Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import type { HttpRequestSpec, Step } from "../src/scenario/Scenario.js"
import { liveTarget } from "../src/target/liveTarget.js"
import { stubDriver } from "./support.js"

const reset = () => new TypeError("fetch failed", { cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) })

/** A driver whose fetch is reset `resets` times, then answers 200; it counts the sends. */
const resettingDriver = (resets: number) => {
  const sent: Array<string> = []
  const driver = stubDriver({
    fetch: (path, init) =>
      Effect.suspend(() => {
        sent.push(`${init.method ?? "GET"} ${path}`)
        return sent.length <= resets ? Effect.fail(reset()) : Effect.succeed(new Response("{}", { status: 200, headers: { "content-type": "application/json" } }))
      })
  })
  return { driver, sent }
}

const real = { kind: "gateway-process", pin: "0.19.0", real: true, clock: "running", description: "stub" } as const
const emulator = { ...real, kind: "emulator-http", real: false } as const
const step = (request: HttpRequestSpec): Step => ({ request }) as Step

describe("a reset under a request", () => {
  it("sends a GET to the real gateway again", async () => {
    const { driver, sent } = resettingDriver(1)
    const outcome = await Effect.runPromise(liveTarget(real, driver).apply(step({ method: "GET", path: "/v1/models" }), 0))
    expect(sent).toEqual(["GET /v1/models", "GET /v1/models"])
    expect(outcome.exchanges[0]?.response?.status).toBe(200)
  })

  it("never sends a generated body again", async () => {
    const { driver, sent } = resettingDriver(1)
    const r = await Effect.runPromise(Effect.either(liveTarget(real, driver).apply(step({ method: "POST", path: "/api/jobs", generatedBody: { size: 10 } } as HttpRequestSpec), 0)))
    expect(sent).toHaveLength(1)
    expect(Either.isLeft(r)).toBe(true)
  })

  it("gives up after two more tries", async () => {
    const { driver, sent } = resettingDriver(5)
    const r = await Effect.runPromise(Effect.either(liveTarget(real, driver).apply(step({ method: "GET", path: "/v1/models" }), 0)))
    expect(sent).toHaveLength(3)
    expect(Either.isLeft(r) && r.left.reason).toContain("ECONNRESET")
  })

  it("never sends a POST with a body of the scenario's again", async () => {
    const { driver, sent } = resettingDriver(1)
    const r = await Effect.runPromise(Effect.either(liveTarget(real, driver).apply(step({ method: "POST", path: "/v1/runs", body: { input: "hi" } } as HttpRequestSpec), 0)))
    expect(sent).toHaveLength(1)
    expect(Either.isLeft(r)).toBe(true)
  })

  it("records an emulator's reset as its answer, without trying again", async () => {
    const { driver, sent } = resettingDriver(1)
    const outcome = await Effect.runPromise(liveTarget(emulator, driver).apply(step({ method: "GET", path: "/v1/models" }), 0))
    expect(sent).toHaveLength(1)
    expect(outcome.exchanges[0]?.transportError).toContain("ECONNRESET")
  })
})
