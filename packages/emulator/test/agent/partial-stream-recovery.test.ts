import { describe, expect, it } from "vitest"
import { PARTIAL_STREAM_RECOVERED_TEXT } from "../../src/agent/EmptyTurnExplanation.js"
import { openClients } from "../support.js"

const open = openClients()

/**
 * A reply whose own text strips to nothing (an unclosed open tag at its start) while the stream
 * filter, inside the block, ended it at an earlier close tag of another variant and streamed the
 * rest (observed live on 0.19.0: scenarios/reasoning-stream-earliest-close-tag-ends-an-open-block.json).
 */
const recoverable = { chunks: ["<reasoning>x", " y</thought> shown</think> end"] }
/** The reply the thinking-prefill continuation would get: its text shows a continued turn. */
const script = { turns: [{ replies: [recoverable, { text: "asked again" }] }] }

describe("partial stream recovery: an empty final reply after visible streamed text", () => {
  it("ends the turn on the streamed text with the explainer's note, no retry, and stores the text alone", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    await c.script(script)
    const runId = String((await c.json("POST", "/v1/runs", { input: "go", session_id: "s-recovered" })).body["run_id"])
    await c.waitForStatus(runId, ["completed"])
    expect((await c.json("GET", `/v1/runs/${runId}`)).body["output"]).toBe(`shownend\n\n${PARTIAL_STREAM_RECOVERED_TEXT}`)
    const listed = (await c.json<{ data: Array<Record<string, unknown>> }>("GET", "/api/sessions/s-recovered/messages")).body.data
    expect(listed.map((m) => [m["role"], m["content"], m["finish_reason"], m["reasoning"]])).toEqual([
      ["user", "go", null, null],
      ["assistant", "shownend", null, null]
    ])
  })

  it("does not apply without a stream: a non-streamed chat continues the thinking reply", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    await c.script(script)
    const res = await c.json("POST", "/v1/chat/completions", { model: "hermes-agent", messages: [{ role: "user", content: "go" }] })
    const choices = res.body["choices"] as Array<{ message: { content: string } }>
    expect(choices[0]?.message.content).toBe("asked again")
  })
})
