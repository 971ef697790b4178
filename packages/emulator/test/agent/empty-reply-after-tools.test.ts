/**
 * An empty reply after a tool round (packages/diff/scenarios/tools/tools-empty-reply-after-housekeeping-tools.json,
 * seen on the real 0.19.0 gateway): after text beside housekeeping tools only, the turn ends on
 * that text (PriorTurnFallback.ts); otherwise the model is nudged once to go on (PostToolNudge.ts).
 */
import { describe, expect, it } from "vitest"
import { PRIOR_CONTENT_RECOVERED_TEXT } from "../../src/agent/EmptyTurnExplanation.js"
import { dropTrailingScaffolding, nudgeMessages, POST_TOOL_NUDGE } from "../../src/agent/PostToolNudge.js"
import { markPrefill } from "../../src/agent/ThinkingOnlyReplies.js"
import { fallbackAnswer, HOUSEKEEPING_TOOLS, PriorTurnFallback } from "../../src/agent/PriorTurnFallback.js"
import { ADMIN_HEADERS, type Client, openClients } from "../support.js"

const open = openClients()

type Call = { messages: Array<Record<string, unknown>> }

const modelCalls = async (c: Client): Promise<Array<Call>> => {
  const res = await fetch(`${c.emu.url}/__admin/model-calls`, { headers: { "x-hermetic-namespace": "default", ...ADMIN_HEADERS } })
  return ((await res.json()) as { calls: Array<Call> }).calls
}

const todo = (id: string, content: string) => ({ id, name: "todo", arguments: { todos: [{ id: "1", content, status: "pending" }] } })
const terminal = (id: string, command: string) => ({ id, name: "terminal", arguments: { command } })

const listed = async (c: Client, session: string) =>
  (await c.json<{ data: Array<Record<string, unknown>> }>("GET", `/api/sessions/${session}/messages`)).body.data.map((m) => [
    m["role"],
    m["content"],
    m["finish_reason"]
  ])

const chat = async (c: Client, content: string): Promise<string | undefined> => {
  const res = await c.json("POST", "/v1/chat/completions", { model: "hermes-agent", messages: [{ role: "user", content }] })
  return (res.body["choices"] as Array<{ message: { content: string } }>)[0]?.message.content
}

describe("the prior turn fallback's state", () => {
  it("names Hermes' four housekeeping tools", () => {
    expect([...HOUSEKEEPING_TOOLS].sort()).toEqual(["memory", "session_search", "skill_manage", "todo"])
  })

  it("keeps visible text beside housekeeping tools only, stripped of reasoning blocks", () => {
    const f = new PriorTurnFallback()
    f.noteToolRound("<think>x</think> Noted. ", ["todo", "memory"])
    expect(f.kept).toBe("Noted.")
  })

  it("keeps the earlier text through a housekeeping round without text", () => {
    const f = new PriorTurnFallback()
    f.noteToolRound("On it.", ["todo"])
    f.noteToolRound("", ["todo"])
    f.noteToolRound("<think>only</think>", ["session_search"])
    expect(f.kept).toBe("On it.")
  })

  it("is dropped by a substantive tool, with or without text, and by a mixed round", () => {
    const f = new PriorTurnFallback()
    f.noteToolRound("On it.", ["todo"])
    f.noteToolRound("", ["terminal"])
    expect(f.kept).toBeUndefined()
    f.noteToolRound("On it.", ["todo"])
    f.noteToolRound("Running.", ["terminal"])
    expect(f.kept).toBeUndefined()
    f.noteToolRound("Both.", ["todo", "terminal"])
    expect(f.kept).toBeUndefined()
  })

})

describe("dropTrailingScaffolding", () => {
  it("drops prefills and nudges at the end only, in any order, leaving the dicts before them", () => {
    const user = { role: "user", content: "u" }
    const kept = markPrefill({ role: "assistant", content: "", finish_reason: "incomplete" })
    const [empty, nudge] = nudgeMessages({ role: "assistant", content: "", finish_reason: "stop" })
    const tool = { role: "tool", content: "r" }
    const messages = [user, kept, empty!, nudge!, tool, markPrefill({ role: "assistant", content: "" }), ...nudgeMessages({ role: "assistant", content: "" })]
    dropTrailingScaffolding(messages)
    expect(messages).toEqual([user, kept, empty, nudge, tool])
    expect(messages[0]).toBe(user)
  })

  it("the nudge's assistant message is the reply as built, its content the sentinel", () => {
    expect(nudgeMessages({ role: "assistant", content: "", reasoning: "r", finish_reason: "stop" })).toEqual([
      { role: "assistant", content: "(empty)", reasoning: "r", finish_reason: "stop", _empty_recovery_synthetic: true },
      { role: "user", content: POST_TOOL_NUDGE, _empty_recovery_synthetic: true }
    ])
  })
})

describe("the fallback answer and the explainer", () => {
  it("appends the note to a short text without closing punctuation only", () => {
    expect(fallbackAnswer("ok noted")).toBe(`ok noted\n\n${PRIOR_CONTENT_RECOVERED_TEXT}`)
    for (const closed of ["Noted.", "yes!", "why?", "完成。", "好！", "吗？", "`x`", "(x)"]) expect(fallbackAnswer(closed)).toBe(closed)
    // 24 code points is still short; 25 is not
    expect(fallbackAnswer("x".repeat(24))).toBe(`${"x".repeat(24)}\n\n${PRIOR_CONTENT_RECOVERED_TEXT}`)
    expect(fallbackAnswer("x".repeat(25))).toBe("x".repeat(25))
    expect(fallbackAnswer("🙂".repeat(24))).toBe(`${"🙂".repeat(24)}\n\n${PRIOR_CONTENT_RECOVERED_TEXT}`)
    expect(fallbackAnswer("ends with a colon:")).toBe(`ends with a colon:\n\n${PRIOR_CONTENT_RECOVERED_TEXT}`)
  })
})

describe("an empty reply after a tool round", () => {
  it("after text beside a todo call: the turn answers that text and stores it as a bare assistant message", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["todo"] })
    await c.script({ turns: [{ replies: [{ text: "Noted, tracking it.", toolCalls: [todo("call_a", "track")] }, { text: "" }, { text: "retried" }] }] })
    const res = await c.json<{ message: { content: string } }>("POST", "/api/sessions", {})
    const session = String((res.body as unknown as { session: { id: string } }).session.id)
    const answered = await c.json<{ message: { content: string } }>("POST", `/api/sessions/${session}/chat`, { message: "track it" })
    expect(answered.body.message.content).toBe("Noted, tracking it.")
    expect(await listed(c, session)).toEqual([
      ["user", "track it", null],
      ["assistant", "Noted, tracking it.", "tool_calls"],
      ["tool", expect.any(String), null],
      ["assistant", "Noted, tracking it.", null]
    ])
  })

  it("a reasoning-only reply counts as empty: the fallback, not a thinking prefill", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["todo"] })
    await c.script({ turns: [{ replies: [{ text: "ok noted", toolCalls: [todo("call_b", "note")] }, { text: "", reasoning: "r" }, { text: "continued" }] }] })
    expect(await chat(c, "note it")).toBe(`ok noted\n\n${PRIOR_CONTENT_RECOVERED_TEXT}`)
    expect((await modelCalls(c)).length).toBe(2)
  })

  it("after text beside a terminal call: one nudge, which opens the next Script turn; the nudge is not kept", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["todo", "terminal"] })
    await c.script({
      turns: [
        { replies: [{ text: "I'll run it.", toolCalls: [terminal("call_c", "echo hi")] }, { text: "" }, { text: "not this" }] },
        { replies: [{ text: "ran it." }] }
      ]
    })
    const res = await c.json("POST", "/v1/responses", { model: "hermes-agent", input: "run it" })
    const output = res.body["output"] as Array<Record<string, unknown>>
    expect(output.map((item) => item["type"])).toEqual(["function_call", "function_call_output", "message"])
    const calls = await modelCalls(c)
    expect(calls.length).toBe(3)
    expect(calls[2]?.messages.slice(-2)).toEqual([
      { role: "assistant", content: "(empty)" },
      { role: "user", content: POST_TOOL_NUDGE }
    ])
  })

  it("todo beside terminal is not all housekeeping: the nudge", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["todo", "terminal"] })
    await c.script({
      turns: [{ replies: [{ text: "Both done.", toolCalls: [todo("call_d", "both"), terminal("call_e", "echo both")] }, { text: "" }] }, { replies: [{ text: "finished." }] }]
    })
    expect(await chat(c, "do both")).toBe("finished.")
  })

  it("the nudge is spent once a turn until tools run again; an inline thinking reply is not nudged", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["terminal"] })
    await c.script({
      turns: [
        { replies: [{ toolCalls: [terminal("call_f", "echo 1")] }, { text: "" }] },
        { replies: [{ toolCalls: [terminal("call_g", "echo 2")] }, { text: "<think>hm</think>" }, { text: "" }] },
        { replies: [{ text: "done." }] }
      ]
    })
    expect(await chat(c, "go")).toBe("done.")
    const calls = await modelCalls(c)
    const nudges = calls.filter((call) => call.messages.at(-1)?.["content"] === POST_TOOL_NUDGE)
    // the first nudge opens turn 2; after its tools ran, the thinking reply is continued, then the empty one is nudged
    expect(nudges.length).toBe(2)
    expect(calls.length).toBe(6)
  })

  it("the nudge's messages are never stored in the session", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["terminal"] })
    await c.script({
      turns: [{ replies: [{ toolCalls: [terminal("call_h", "echo 1")] }, { text: "" }] }, { replies: [{ toolCalls: [terminal("call_i", "echo 2")] }, { text: "after." }] }]
    })
    const res = await c.json("POST", "/api/sessions", {})
    const session = String((res.body as unknown as { session: { id: string } }).session.id)
    await c.json("POST", `/api/sessions/${session}/chat`, { message: "go" })
    expect((await listed(c, session)).map(([role, content]) => [role, typeof content === "string" && content.startsWith("{") ? "{…}" : content])).toEqual([
      ["user", "go"],
      ["assistant", ""],
      ["tool", "{…}"],
      ["assistant", ""],
      ["tool", "{…}"],
      ["assistant", "after."]
    ])
  })
})
