/**
 * An armed disconnect fault cuts only a stream (services/FaultAnswer.ts faultCut): the answer App.ts
 * lets out after the middleware chain, for a rule that fired and for none.
 */
import { Stream } from "effect"
import { describe, expect, it } from "vitest"
import { type EmuResponse, jsonResponse } from "../../src/http/Exchange.js"
import { faultCut } from "../../src/services/FaultAnswer.js"

const stream: EmuResponse = { status: 200, headers: [["content-type", "text/event-stream"]], body: { _tag: "sse", frames: Stream.make("a", "b") } }
const json = jsonResponse({ ok: true }, 200)

describe("faultCut", () => {
  it("cuts a stream after the rule's frame count, zero included", () => {
    expect(faultCut({ disconnectAfterFrames: 2 }, stream)).toEqual({ ...stream, body: { ...stream.body, disconnectAfter: 2 } })
    expect(faultCut({ disconnectAfterFrames: 0 }, stream).body).toMatchObject({ _tag: "sse", disconnectAfter: 0 })
  })

  it("leaves a stream whole without a rule, or with a rule that cuts nothing", () => {
    expect(faultCut(undefined, stream)).toBe(stream)
    expect(faultCut({ latencyMs: 5 }, stream)).toBe(stream)
  })

  it("leaves an answer that is no stream as it is, even with a disconnect armed", () => {
    expect(faultCut({ disconnectAfterFrames: 2 }, json)).toBe(json)
  })
})
