import { describe, expect, it } from "vitest"
import { EMPTY_RETRIES_EXHAUSTED_TEXT, explainEmptyAnswer } from "../../src/agent/EmptyTurnExplanation.js"
import { openClients } from "../support.js"

const open = openClients()

/** One empty reply per Script turn: each retry resends the transcript ending in the user message, so it opens a turn. */
const emptyTurns = (count: number) => ({ turns: Array.from({ length: count }, () => ({ replies: [{ text: "" }] })) })

describe("a turn whose empty-reply retries run out (observed live on 0.19.0)", () => {
  it("answers the 'No reply' warning on chat completions", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    await c.script(emptyTurns(4))
    const res = await c.json("POST", "/v1/chat/completions", { model: "hermes-agent", messages: [{ role: "user", content: "say nothing" }] })
    expect(res.status).toBe(200)
    const choices = res.body["choices"] as Array<{ message: { content: string } }>
    expect(choices[0]?.message.content).toBe(EMPTY_RETRIES_EXHAUSTED_TEXT)
    expect(EMPTY_RETRIES_EXHAUSTED_TEXT.startsWith("⚠️ No reply: ")).toBe(true)
  })

  it("answers the warning as the run's output and stores a bare \"(empty)\" assistant message", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    await c.script(emptyTurns(4))
    const runId = String((await c.json("POST", "/v1/runs", { input: "say nothing", session_id: "s-empty" })).body["run_id"])
    await c.waitForStatus(runId, ["completed"])
    expect((await c.json("GET", `/v1/runs/${runId}`)).body["output"]).toBe(EMPTY_RETRIES_EXHAUSTED_TEXT)
    const listed = (await c.json<{ data: Array<Record<string, unknown>> }>("GET", "/api/sessions/s-empty/messages")).body.data
    expect(listed.map((m) => [m["role"], m["content"], m["finish_reason"], m["reasoning"]])).toEqual([
      ["user", "say nothing", null, null],
      ["assistant", "(empty)", null, null]
    ])
  })

  it("after replies carrying only reasoning, stores only the user message: the thinking prefills close the turn unstored", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    await c.script({ turns: [{ replies: Array.from({ length: 8 }, () => ({ text: "", reasoning: "pondering" })) }] })
    const runId = String((await c.json("POST", "/v1/runs", { input: "think only", session_id: "s-think" })).body["run_id"])
    await c.waitForStatus(runId, ["completed"])
    expect((await c.json("GET", `/v1/runs/${runId}`)).body["output"]).toBe(EMPTY_RETRIES_EXHAUSTED_TEXT)
    const listed = (await c.json<{ data: Array<Record<string, unknown>> }>("GET", "/api/sessions/s-think/messages")).body.data
    expect(listed.map((m) => [m["role"], m["content"]])).toEqual([["user", "think only"]])
  })

  it("answers normally when a retry brings text before the retries run out", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    await c.script({ turns: [...emptyTurns(3).turns, { replies: [{ text: "late but here" }] }] })
    const res = await c.json("POST", "/v1/chat/completions", { model: "hermes-agent", messages: [{ role: "user", content: "try again" }] })
    const choices = res.body["choices"] as Array<{ message: { content: string } }>
    expect(choices[0]?.message.content).toBe("late but here")
  })
})

describe("explainEmptyAnswer", () => {
  it("replaces a blank or sentinel answer, and keeps text a length-cut part carried", () => {
    expect(explainEmptyAnswer("")).toBe(EMPTY_RETRIES_EXHAUSTED_TEXT)
    expect(explainEmptyAnswer("(empty)")).toBe(EMPTY_RETRIES_EXHAUSTED_TEXT)
    expect(explainEmptyAnswer("one two (empty)")).toBe("one two (empty)")
  })
})
