/**
 * Matched turns (`when`) through the emulator's routes: the operation, the session and the last
 * user message pick the reply, whatever order the requests come in — including concurrent runs.
 */
import { afterEach, describe, expect, it } from "vitest"
import { ADMIN_HEADERS, type Client, startClient } from "../support.js"

let c: Client
afterEach(async () => {
  await c.emu.close()
})

const chatText = async (content: string, headers: Record<string, string> = {}) => {
  const res = await c.request("POST", "/v1/chat/completions", { body: { model: "hermes-agent", messages: [{ role: "user", content }] }, headers })
  return ((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content
}

const runOutput = async (input: string, extra: Record<string, unknown> = {}) => {
  const { body } = await c.json<{ run_id: string }>("POST", "/v1/runs", { input, ...extra })
  return (await c.waitForStatus(body.run_id, ["completed", "failed"]))["output"]
}

describe("matched turns (when) on the emulator", () => {
  it("pick by operation before the queue, in any request order", async () => {
    c = await startClient({ hermesVersion: "0.19.0" })
    await c.script({
      turns: [
        { when: { operation: "runs.create" }, replies: [{ text: "for the run" }] },
        { replies: [{ text: "from the queue" }] },
        { when: { operation: "chat.completions" }, replies: [{ text: "for the chat" }] }
      ]
    })
    expect(await chatText("first")).toBe("for the chat")
    expect(await runOutput("second")).toBe("for the run")
    expect(await chatText("third")).toBe("from the queue")
  })

  it("pick by session id and by the last user message; a turn nothing matches stays queued", async () => {
    c = await startClient({ hermesVersion: "0.19.0" })
    await c.script({
      turns: [
        { when: { sessionId: "api-named-session" }, replies: [{ text: "for that session" }] },
        { when: { lastUserMessage: { matches: "^refund #\\d+$" } }, replies: [{ text: "refund approved" }] },
        { when: { lastUserMessage: { equals: "never sent" } }, replies: [{ text: "unused" }] }
      ]
    })
    expect(await chatText("refund #42")).toBe("refund approved")
    expect(await chatText("hello", { "X-Hermes-Session-Id": "api-named-session" })).toBe("for that session")
    const state = (await (await fetch(`${c.emu.url}/__admin/state`, { headers: ADMIN_HEADERS })).json()) as { pending_turns: number }
    expect(state.pending_turns).toBe(1)
  })

  it("give concurrent runs their own replies, released in the opposite order", async () => {
    c = await startClient({ hermesVersion: "0.19.0" })
    await c.script({
      turns: [
        { when: { lastUserMessage: { equals: "run A" } }, replies: [{ hold: "a", text: "answer A" }] },
        { when: { lastUserMessage: { equals: "run B" } }, replies: [{ hold: "b", text: "answer B" }] }
      ]
    })
    const b = (await c.json<{ run_id: string }>("POST", "/v1/runs", { input: "run B" })).body.run_id
    const a = (await c.json<{ run_id: string }>("POST", "/v1/runs", { input: "run A" })).body.run_id
    await c.waitForStatus(a, ["running"])
    await c.release("a")
    expect((await c.waitForStatus(a, ["completed"]))["output"]).toBe("answer A")
    await c.release("b")
    expect((await c.waitForStatus(b, ["completed"]))["output"]).toBe("answer B")
  })
})
