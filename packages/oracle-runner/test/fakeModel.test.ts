import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { startFakeModel, EXHAUSTED_REPLY_TEXT, type FakeModel } from "../src/fake-model/FakeModelServer.js"

let fm: FakeModel
beforeEach(async () => {
  fm = await startFakeModel()
})
afterEach(async () => {
  await fm.close()
})

const post = (path: string, body: unknown) =>
  fetch(`${fm.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })

const SYSTEM = { role: "system", content: "You are Hermes Agent, an intelligent AI assistant." }
const chat = (messages: ReadonlyArray<unknown>, extra: Record<string, unknown> = {}) =>
  post("/v1/chat/completions", { model: "m", messages, ...extra })

const textOf = async (r: Response): Promise<string> => {
  const j = (await r.json()) as { choices: Array<{ message: { content: string | null } }> }
  return j.choices[0]?.message.content ?? ""
}

/** Parses an SSE body into its data payloads. */
const sse = (body: string): ReadonlyArray<string> =>
  body.split("\n\n").filter((f) => f.startsWith("data: ")).map((f) => f.slice(6))

describe("fake model: script playing", () => {
  it("answers turns in order, one turn per user message, non-streaming", async () => {
    await post("/__admin/script", { turns: [{ replies: [{ text: "first" }] }, { replies: [{ text: "second" }] }] })
    expect(await textOf(await chat([SYSTEM, { role: "user", content: "a" }]))).toBe("first")
    expect(await textOf(await chat([SYSTEM, { role: "user", content: "b" }]))).toBe("second")
    expect(await textOf(await chat([SYSTEM, { role: "user", content: "c" }]))).toBe(EXHAUSTED_REPLY_TEXT)
    const j = fm.journal().filter((e) => e.kind === "main")
    expect(j.map((e) => e.reply)).toEqual([
      { source: "script", turn: 0, reply: 0, skippedReplies: 0 },
      { source: "script", turn: 1, reply: 0, skippedReplies: 0 },
      { source: "exhausted-default", why: "no-turn-queued" }
    ])
  })

  it("gives a tool-result continuation the next reply of the same turn", async () => {
    fm.appendScript({
      turns: [
        { replies: [{ toolCalls: [{ name: "lookup", arguments: { q: "x" } }] }, { text: "done" }] },
        { replies: [{ text: "next turn" }] }
      ]
    })
    const r1 = (await (await chat([SYSTEM, { role: "user", content: "go" }])).json()) as {
      choices: Array<{ message: { tool_calls: Array<{ id: string; function: { name: string; arguments: string } }> }; finish_reason: string }>
    }
    const call = r1.choices[0]?.message.tool_calls[0]
    expect(call?.function).toEqual({ name: "lookup", arguments: '{"q":"x"}' })
    expect(r1.choices[0]?.finish_reason).toBe("tool_calls")
    const after = [SYSTEM, { role: "user", content: "go" }, { role: "assistant", tool_calls: [call] }, { role: "tool", content: "r" }]
    expect(await textOf(await chat(after))).toBe("done")
    // A further continuation has nothing left in its turn and must not steal the next turn.
    expect(await textOf(await chat([...after, { role: "assistant", content: "done" }]))).toBe(EXHAUSTED_REPLY_TEXT)
    expect(await textOf(await chat([SYSTEM, { role: "user", content: "again" }]))).toBe("next turn")
  })

  it("counts replies a new turn skipped", async () => {
    fm.appendScript({ turns: [{ replies: [{ text: "a" }, { text: "unused" }] }, { replies: [{ text: "b" }] }] })
    await chat([SYSTEM, { role: "user", content: "1" }])
    expect(await textOf(await chat([SYSTEM, { role: "user", content: "2" }]))).toBe("b")
    expect(fm.journal().at(-1)?.reply).toEqual({ source: "script", turn: 1, reply: 0, skippedReplies: 1 })
  })

  it("rejects an invalid script with 400 and keeps the queue", async () => {
    const r = await post("/__admin/script", { turns: [{ replies: [{ text: 5 }] }] })
    expect(r.status).toBe(400)
    const s = (await (await fetch(`${fm.url}/__admin/state`)).json()) as { pendingTurns: number }
    expect(s.pendingTurns).toBe(0)
  })
})

describe("fake model: streaming format", () => {
  it("streams one delta per chunk, then finish, usage and [DONE]", async () => {
    fm.appendScript({ turns: [{ replies: [{ text: "Hello there", chunks: ["Hel", "lo there"], usage: { prompt_tokens: 12, completion_tokens: 3 } }] }] })
    const r = await chat([SYSTEM, { role: "user", content: "hi" }], { stream: true, stream_options: { include_usage: true } })
    expect(r.headers.get("content-type")).toBe("text/event-stream")
    const frames = sse(await r.text())
    expect(frames.at(-1)).toBe("[DONE]")
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f) as { choices: Array<{ delta: Record<string, unknown>; finish_reason: string | null }>; usage?: unknown })
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant", content: "" })
    expect(chunks.slice(1, 3).map((c) => c.choices[0]?.delta["content"])).toEqual(["Hel", "lo there"])
    expect(chunks[3]?.choices[0]?.finish_reason).toBe("stop")
    expect(chunks[4]?.choices).toEqual([])
    expect(chunks[4]?.usage).toEqual({ prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 })
  })

  it("streams tool calls as tool_calls deltas and omits usage unless asked", async () => {
    fm.appendScript({ turns: [{ replies: [{ toolCalls: [{ id: "call_1", name: "t", arguments: "{}" }] }] }] })
    const frames = sse(await (await chat([SYSTEM, { role: "user", content: "x" }], { stream: true })).text())
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f) as { choices: Array<{ delta: Record<string, unknown>; finish_reason: string | null }> })
    expect(chunks[1]?.choices[0]?.delta["tool_calls"]).toEqual([{ index: 0, id: "call_1", type: "function", function: { name: "t", arguments: "{}" } }])
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("tool_calls")
    expect(chunks.every((c) => c.choices.length === 1)).toBe(true)
  })
})

describe("fake model: holds", () => {
  it("keeps a held reply back until released", async () => {
    fm.appendScript({ turns: [{ replies: [{ hold: "h1", text: "late" }] }] })
    let settled = false
    const pending = chat([SYSTEM, { role: "user", content: "x" }]).then(async (r) => {
      settled = true
      return textOf(r)
    })
    await new Promise((r) => setTimeout(r, 150))
    expect(settled).toBe(false)
    expect(fm.journal().at(-1)?.outcome).toBe("held")
    const rel = (await (await post("/__admin/holds/h1/release", {})).json()) as { releasedCalls: number }
    expect(rel.releasedCalls).toBe(1)
    expect(await pending).toBe("late")
    expect(fm.journal().at(-1)?.outcome).toBe("sent")
  })

  it("remembers a release that comes before the call", async () => {
    fm.release("early")
    fm.appendScript({ turns: [{ replies: [{ hold: "early", text: "now" }] }] })
    expect(await textOf(await chat([SYSTEM, { role: "user", content: "x" }]))).toBe("now")
  })

  it("reset drops held calls and clears queue and journal", async () => {
    fm.appendScript({ turns: [{ replies: [{ hold: "h", text: "never" }] }, { replies: [{ text: "x" }] }] })
    const pending = chat([SYSTEM, { role: "user", content: "x" }]).then(() => "answered", () => "connection dropped")
    await new Promise((r) => setTimeout(r, 100))
    await post("/__admin/reset", {})
    expect(await pending).toBe("connection dropped")
    expect(fm.journal()).toEqual([])
    expect(await textOf(await chat([SYSTEM, { role: "user", content: "y" }]))).toBe(EXHAUSTED_REPLY_TEXT)
  })
})

describe("fake model: errors", () => {
  it("answers an error reply with its status, and repeats it only to Hermes' retries of the same call", async () => {
    fm.appendScript({
      turns: [
        { replies: [{ error: { status: 500, message: "synthetic failure" } }] },
        { replies: [{ error: { status: 400, message: "bad" } }] },
        { replies: [{ text: "after" }] }
      ]
    })
    const msgs = [SYSTEM, { role: "user", content: "x" }]
    const r1 = await chat(msgs)
    expect(r1.status).toBe(500)
    expect(await r1.json()).toEqual({ error: { message: "synthetic failure", type: "server_error", param: null, code: null } })
    // a 5xx is tried three times in all: two retries get the same error
    for (let i = 0; i < 2; i++) {
      const retry = await chat(msgs, { stream: true })
      expect(retry.status).toBe(500)
      expect(fm.journal().at(-1)?.reply).toEqual({ source: "script-sticky-error", turn: 0, reply: 0 })
    }
    // the same messages once more are a new turn (a new run with the same input), not a retry
    const r4 = await chat(msgs)
    expect(r4.status).toBe(400)
    // a 400 is not retried: the identical next call opens the next turn
    expect(await textOf(await chat(msgs))).toBe("after")
  })

  it("defaults the error type by status class", async () => {
    fm.appendScript({ turns: [{ replies: [{ error: { status: 503, message: "down" } }] }] })
    const r = await chat([SYSTEM, { role: "user", content: "x" }])
    expect(r.status).toBe(503)
    expect(((await r.json()) as { error: { type: string } }).error.type).toBe("server_error")
  })
})

describe("fake model: housekeeping and probes", () => {
  it("answers title calls with the default and does not consume the script", async () => {
    fm.appendScript({ turns: [{ replies: [{ text: "scripted" }] }] })
    const title = await chat([
      { role: "system", content: "Generate a short, descriptive title (3-7 words) for a conversation" },
      { role: "user", content: "User: hi\n\nAssistant: hello" }
    ])
    expect(await textOf(title)).toBe("ok")
    const jsonTitle = await chat(
      [{ role: "system", content: "You name chat sessions." }, { role: "user", content: "hi" }],
      { response_format: { type: "json_schema", json_schema: { name: "session_title" } } }
    )
    expect(JSON.parse(await textOf(jsonTitle))).toEqual({ title: "ok" })
    const review = await chat([SYSTEM, { role: "user", content: "Review the conversation above and consider saving to memory" }])
    expect(await textOf(review)).toBe("ok")
    const compress = await chat([{ role: "system", content: "You are a summarization agent creating a context checkpoint." }, { role: "user", content: "..." }])
    expect(await textOf(compress)).toBe("ok")
    const vision = await chat([{ role: "user", content: [{ type: "text", text: "Fully describe and explain everything about this image, then answer the following question:\n\nwhat is it" }, { type: "image_url", image_url: { url: "data:image/png;base64,AA==" } }] }])
    expect(await textOf(vision)).toBe("ok")
    const attached = await chat([{ role: "user", content: [{ type: "text", text: "Describe everything visible in this image in thorough detail." }, { type: "image_url", image_url: { url: "data:image/png;base64,AA==" } }] }])
    expect(await textOf(attached)).toBe("ok")
    expect(await textOf(await chat([SYSTEM, { role: "user", content: "real" }]))).toBe("scripted")
    expect(fm.journal().map((e) => e.housekeeping ?? e.kind)).toEqual(["title", "title", "background_review", "compression", "vision", "vision", "main"])
  })

  it("lists one model and answers Hermes' local-server probes with 404", async () => {
    const models = (await (await fetch(`${fm.url}/v1/models`)).json()) as { data: Array<{ id: string }> }
    expect(models.data.map((m) => m.id)).toEqual([fm.model])
    for (const p of ["/api/v1/models", "/api/tags", "/v1/props", "/props", "/version"]) {
      expect((await fetch(`${fm.url}${p}`)).status).toBe(404)
    }
    expect(fm.journal().map((e) => e.kind)).toEqual(["models", "probe", "probe", "probe", "probe", "probe"])
  })

  it("binds to loopback only", () => {
    expect(fm.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })
})

describe("fake model: lifecycle (platform-node server in a scope)", () => {
  it("shuts down gracefully: a held call is cut, a call in flight finishes, then the port is closed", async () => {
    const slow = await startFakeModel({ chunkDelayMs: 40, shutdownGraceMs: 3000 })
    slow.appendScript({ turns: [{ replies: [{ hold: "never", text: "x" }] }, { replies: [{ text: "streamed", chunks: ["a", "b", "c", "d", "e"] }] }] })
    const body = (messages: ReadonlyArray<unknown>, stream: boolean) =>
      ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "m", messages, stream }) })
    const held = fetch(`${slow.url}/v1/chat/completions`, body([SYSTEM, { role: "user", content: "held" }], false)).then(
      () => "answered",
      () => "cut"
    )
    await new Promise((r) => setTimeout(r, 100))
    const streaming = await fetch(`${slow.url}/v1/chat/completions`, body([SYSTEM, { role: "user", content: "stream" }], true))
    const text = streaming.text()
    const closing = Date.now()
    await slow.close()
    // it waited for the stream, not for the whole grace period
    expect(Date.now() - closing).toBeLessThan(2500)
    expect(await held).toBe("cut")
    expect(sse(await text).length).toBeGreaterThan(5)
    await expect(fetch(`${slow.url}/v1/models`)).rejects.toThrow()
  })
})

describe("fake model: its control plane refuses what the emulator's refuses (@hermetic/script's guard)", () => {
  it("a foreign Origin, a foreign Host and a non-JSON body are refused and change nothing", async () => {
    await post("/__admin/reset", {})
    await post("/__admin/script", { turns: [{ replies: [{ text: "kept" }] }] })
    const reset = (headers: Record<string, string>) => fetch(`${fm.url}/__admin/reset`, { method: "POST", headers, body: "{}" })
    expect((await reset({ "content-type": "application/json", origin: "http://evil.example" })).status).toBe(403)
    expect((await reset({ "content-type": "text/plain" })).status).toBe(415)
    expect((await reset({})).status).toBe(415)
    const state = (await (await fetch(`${fm.url}/__admin/state`)).json()) as { pendingTurns: number }
    expect(state.pendingTurns).toBe(1)
    await post("/__admin/reset", {})
  })
})
