/**
 * The agent's iteration budget (agent.max_turns, AGENT_MAX_TURNS model calls per turn), observed live
 * on 0.19.0 (packages/diff/scenarios/tools/tools-iteration-budget-summary.json): the budget's last
 * call still runs its tools, then Hermes appends its summary request as a user message and makes one
 * call without tools whose reply is the answer; the turn completion explainer appends its note to a
 * short unpunctuated summary.
 */
import { AGENT_MAX_TURNS } from "@hermetic/script"
import { describe, expect, it } from "vitest"
import {
  explainIterationLimitAnswer,
  ITERATION_LIMIT_NO_SUMMARY_TEXT,
  ITERATION_LIMIT_SUMMARY_REQUEST,
  IterationBudget,
  MAX_ITERATIONS_NOTE,
  summaryText
} from "../../src/agent/IterationBudget.js"
import { ADMIN_HEADERS, type Client, openClients } from "../support.js"

const open = openClients()

type Call = { messages: Array<Record<string, unknown>> }

const modelCalls = async (c: Client): Promise<Array<Call>> => {
  const res = await fetch(`${c.emu.url}/__admin/model-calls`, { headers: { "x-hermetic-namespace": "default", ...ADMIN_HEADERS } })
  return ((await res.json()) as { calls: Array<Call> }).calls
}

/** One todo call per model call, each with another list (no guardrail sees a repeat). */
const rounds = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    toolCalls: [{ id: `call_b${i + 1}`, name: "todo", arguments: { todos: [{ id: String(i + 1), content: `step ${i + 1}`, status: "in_progress" }] } }]
  }))

describe("the iteration budget", () => {
  it("allows AGENT_MAX_TURNS calls and refuses the next", () => {
    const budget = new IterationBudget()
    for (let i = 0; i < AGENT_MAX_TURNS; i++) expect(budget.consume()).toBe(true)
    expect(budget.consume()).toBe(false)
    expect(budget.consume()).toBe(false)
  })

  it("takes the summary's text stripped, without think blocks", () => {
    expect(summaryText("  <think>plan</think>\n done \n")).toBe("done")
    expect(summaryText("<think>only</think>")).toBe("")
    expect(summaryText(" kept ")).toBe("kept")
  })

  it("appends the explainer's note only to a short unpunctuated summary", () => {
    expect(explainIterationLimitAnswer("stopped at twenty")).toBe(`stopped at twenty\n\n${MAX_ITERATIONS_NOTE}`)
    // 24 code points is still short; 25 is not
    expect(explainIterationLimitAnswer("x".repeat(24))).toBe(`${"x".repeat(24)}\n\n${MAX_ITERATIONS_NOTE}`)
    expect(explainIterationLimitAnswer("x".repeat(25))).toBe("x".repeat(25))
    expect(explainIterationLimitAnswer("é".repeat(24))).toBe(`${"é".repeat(24)}\n\n${MAX_ITERATIONS_NOTE}`)
    for (const end of [".", "!", "?", "。", "！", "？", "`", ")"]) expect(explainIterationLimitAnswer(`done${end}`)).toBe(`done${end}`)
    expect(explainIterationLimitAnswer("(empty)")).toBe(MAX_ITERATIONS_NOTE)
    expect(explainIterationLimitAnswer(ITERATION_LIMIT_NO_SUMMARY_TEXT)).toBe(ITERATION_LIMIT_NO_SUMMARY_TEXT)
  })

  it("ends a turn that keeps calling tools with one toolless summary call", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["todo"] })
    await c.script({ turns: [{ replies: [...rounds(AGENT_MAX_TURNS), { text: "stopped at twenty" }, { text: "never asked" }] }] })
    const id = (await c.json<{ session: { id: string } }>("POST", "/api/sessions", {})).body.session.id
    const res = await c.json<{ message: { content: string } }>("POST", `/api/sessions/${id}/chat`, { message: "keep planning" })
    expect(res.body.message.content).toBe(`stopped at twenty\n\n${MAX_ITERATIONS_NOTE}`)
    const calls = await modelCalls(c)
    expect(calls).toHaveLength(AGENT_MAX_TURNS + 1)
    const summary = calls[AGENT_MAX_TURNS]?.messages ?? []
    expect(summary.at(-1)).toEqual({ role: "user", content: ITERATION_LIMIT_SUMMARY_REQUEST })
    // the summary call sends the arguments as stored: no re-dump with sorted keys
    expect((summary[2]?.["tool_calls"] as Array<{ function: { arguments: string } }>)[0]?.function.arguments).toBe(
      '{"todos":[{"id":"1","content":"step 1","status":"in_progress"}]}'
    )
    expect((calls[1]?.messages[2]?.["tool_calls"] as Array<{ function: { arguments: string } }>)[0]?.function.arguments).toBe(
      '{"todos":[{"content":"step 1","id":"1","status":"in_progress"}]}'
    )
    const listed = (await c.json<{ data: Array<Record<string, unknown>> }>("GET", `/api/sessions/${id}/messages`)).body.data
    expect(listed).toHaveLength(2 + 2 * AGENT_MAX_TURNS + 1)
    expect(listed.slice(-3).map((m) => [m["role"], m["content"], m["finish_reason"]])).toEqual([
      ["tool", expect.any(String), null],
      ["user", ITERATION_LIMIT_SUMMARY_REQUEST, null],
      ["assistant", "stopped at twenty", null]
    ])
  })

  it("asks once more for an empty summary, then answers the fallback, not completed", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["todo"] })
    await c.script({ turns: [{ replies: [...rounds(AGENT_MAX_TURNS), { text: "" }, { text: " " }, { text: "never asked" }] }] })
    const res = await c.json<{ choices: Array<{ message: { content: string } }> }>("POST", "/v1/chat/completions", {
      model: "hermes-agent",
      messages: [{ role: "user", content: "plan" }]
    })
    expect(res.body.choices[0]?.message.content).toBe(ITERATION_LIMIT_NO_SUMMARY_TEXT)
    expect(res.headers.get("x-hermes-completed")).toBe("false")
    expect(await modelCalls(c)).toHaveLength(AGENT_MAX_TURNS + 2)
  })

  it("does not touch a turn that answers within the budget", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["todo"] })
    await c.script({ turns: [{ replies: [...rounds(AGENT_MAX_TURNS - 1), { text: "done" }] }] })
    const id = (await c.json<{ session: { id: string } }>("POST", "/api/sessions", {})).body.session.id
    const res = await c.json<{ message: { content: string } }>("POST", `/api/sessions/${id}/chat`, { message: "plan" })
    expect(res.body.message.content).toBe("done")
  })
})

describe("a failed summary call", () => {
  it("answers that Hermes could not summarize, naming the status and the model's error body as Python shows it", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["todo"] })
    await c.script({ turns: [{ replies: [...rounds(AGENT_MAX_TURNS), { error: { status: 400, message: "it's refused" } }] }] })
    const res = await c.json<{ choices: Array<{ message: { content: string } }> }>("POST", "/v1/chat/completions", {
      model: "hermes-agent",
      messages: [{ role: "user", content: "plan" }]
    })
    expect(res.body.choices[0]?.message.content).toBe(
      `I reached the maximum iterations (${AGENT_MAX_TURNS}) but couldn't summarize. Error: Error code: 400 - ` +
        `{'error': {'message': "it's refused", 'type': 'invalid_request_error', 'param': None, 'code': None}}`
    )
  })
})

describe("summaries the explainer reads differently", () => {
  const chat = async (summary: string) => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["todo"] })
    await c.script({ turns: [{ replies: [...rounds(AGENT_MAX_TURNS), { text: summary }] }] })
    const id = (await c.json<{ session: { id: string } }>("POST", "/api/sessions", {})).body.session.id
    const answer = (await c.json<{ message: { content: string } }>("POST", `/api/sessions/${id}/chat`, { message: "plan" })).body.message.content
    const listed = (await c.json<{ data: Array<Record<string, unknown>> }>("GET", `/api/sessions/${id}/messages`)).body.data
    return { answer, stored: listed.at(-1)?.["content"] }
  }

  it("a think block removed leaves a short sentence: no note, stored without the block", async () => {
    expect(await chat("<think>plan</think>\nDone.")).toEqual({ answer: "Done.", stored: "Done." })
  })

  it("a summary of exactly (empty) is stored as it is and answered with the note alone", async () => {
    expect(await chat("(empty)")).toEqual({ answer: MAX_ITERATIONS_NOTE, stored: "(empty)" })
  })
})
