import { describe, expect, it } from "vitest"
import { type Client, openClients } from "../support.js"

const open = openClients()

type Listed = { data: Array<Record<string, unknown>> }

/** The session's messages once the agent's turn-start write has landed (the run task writes it after status "running"). */
const messagesOnceWritten = async (c: Client, sessionId: string, count: number): Promise<Array<Record<string, unknown>>> => {
  for (let attempt = 0; attempt < 200; attempt++) {
    const res = await c.json<Listed>("GET", `/api/sessions/${sessionId}/messages`)
    if (res.status === 200 && res.body.data.length >= count) return res.body.data
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  throw new Error(`session ${sessionId} never had ${count} messages`)
}

const session = async (c: Client, sessionId: string) => (await c.json("GET", `/api/sessions/${sessionId}`)).body["session"] as Record<string, unknown>

describe.each(["0.19.0", "0.21.0"] as const)("the agent writes its turn at Hermes' persistence points on %s", (pin) => {
  it("a held run's session and user message exist before the model answers; each message is stamped when written", async () => {
    const c = await open({ hermesVersion: pin })
    await c.script({ turns: [{ replies: [{ hold: "h1", text: "late answer", usage: { prompt_tokens: 7, completion_tokens: 2 } }] }] })
    const runId = String((await c.json("POST", "/v1/runs", { input: "persist me", session_id: "s-held" })).body["run_id"])
    await c.waitForStatus(runId, ["running"])
    const early = await messagesOnceWritten(c, "s-held", 1)
    expect(early.map((m) => [m["id"], m["role"], m["content"]])).toEqual([[1, "user", "persist me"]])
    expect(await session(c, "s-held")).toMatchObject({ message_count: 1, api_call_count: 0, input_tokens: 0, output_tokens: 0, model: "hermetic-fake-model" })
    await c.admin("/clock", { advance: 600 })
    await c.release("h1")
    await c.waitForStatus(runId, ["completed"])
    const done = await messagesOnceWritten(c, "s-held", 2)
    expect(done.map((m) => [m["id"], m["role"]])).toEqual([[1, "user"], [2, "assistant"]])
    // the user's row keeps its turn-start timestamp: the answer is written 600 s of clock later
    expect(Number(done[1]?.["timestamp"]) - Number(done[0]?.["timestamp"])).toBeGreaterThanOrEqual(600)
    expect(await session(c, "s-held")).toMatchObject({ message_count: 2, api_call_count: 1, input_tokens: 7, output_tokens: 2 })
  })

  it("a run that finishes while another is held takes the message ids after the held run's user message", async () => {
    const c = await open({ hermesVersion: pin })
    await c.script({ turns: [{ replies: [{ hold: "h1", text: "first" }] }, { replies: [{ text: "second" }] }] })
    const held = String((await c.json("POST", "/v1/runs", { input: "held" })).body["run_id"])
    await c.waitForStatus(held, ["running"])
    await messagesOnceWritten(c, held, 1)
    const quick = String((await c.json("POST", "/v1/runs", { input: "quick" })).body["run_id"])
    await c.waitForStatus(quick, ["completed"])
    await c.release("h1")
    await c.waitForStatus(held, ["completed"])
    expect((await messagesOnceWritten(c, quick, 2)).map((m) => m["id"])).toEqual([2, 3])
    expect((await messagesOnceWritten(c, held, 2)).map((m) => m["id"])).toEqual([1, 4])
  })

  it("while a run waits for approval, its user and tool-call messages and the first call's tokens are written", async () => {
    const c = await open({ hermesVersion: pin, enabledToolsets: ["terminal"] })
    await c.script({
      turns: [{
        replies: [
          { toolCalls: [{ id: "call_w1", name: "terminal", arguments: { command: "echo DROP TABLE t" } }], usage: { prompt_tokens: 11, completion_tokens: 4 } },
          { text: "dropped", usage: { prompt_tokens: 13, completion_tokens: 1 } }
        ]
      }]
    })
    const runId = String((await c.json("POST", "/v1/runs", { input: "dangerous", session_id: "s-wait" })).body["run_id"])
    await c.waitForStatus(runId, ["waiting_for_approval"])
    const waiting = await messagesOnceWritten(c, "s-wait", 2)
    expect(waiting.map((m) => [m["role"], m["finish_reason"]])).toEqual([["user", null], ["assistant", "tool_calls"]])
    expect(await session(c, "s-wait")).toMatchObject({ message_count: 2, tool_call_count: 1, api_call_count: 1, input_tokens: 11, output_tokens: 4 })
    await c.json("POST", `/v1/runs/${runId}/approval`, { choice: "once" })
    await c.waitForStatus(runId, ["completed"])
    const done = await messagesOnceWritten(c, "s-wait", 4)
    expect(done.map((m) => m["role"])).toEqual(["user", "assistant", "tool", "assistant"])
    expect(await session(c, "s-wait")).toMatchObject({ message_count: 4, tool_call_count: 1, api_call_count: 2, input_tokens: 24, output_tokens: 5 })
  })

  it("the session counts each accepted model call: an empty reply is one, a reply cut by the length limit is not (observed live on 0.19.0)", async () => {
    const c = await open({ hermesVersion: pin })
    await c.script({
      turns: [
        { replies: [{ text: "", usage: { prompt_tokens: 3, completion_tokens: 0 } }] },
        { replies: [{ text: "after empty", usage: { prompt_tokens: 4, completion_tokens: 2 } }] },
        { replies: [{ text: "cut", finishReason: "length", usage: { prompt_tokens: 5, completion_tokens: 6 } }, { text: "rest", usage: { prompt_tokens: 7, completion_tokens: 1 } }] }
      ]
    })
    const empty = String((await c.json("POST", "/v1/runs", { input: "empty first", session_id: "s-empty" })).body["run_id"])
    await c.waitForStatus(empty, ["completed"])
    expect(await session(c, "s-empty")).toMatchObject({ message_count: 2, api_call_count: 2, input_tokens: 7, output_tokens: 2 })
    const cut = String((await c.json("POST", "/v1/runs", { input: "cut first", session_id: "s-cut" })).body["run_id"])
    await c.waitForStatus(cut, ["completed"])
    expect(await session(c, "s-cut")).toMatchObject({ message_count: 4, api_call_count: 1, input_tokens: 7, output_tokens: 1 })
  })
})
