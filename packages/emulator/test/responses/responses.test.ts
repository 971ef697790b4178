/**
 * The Responses API's behaviour on both pins, black-box over HTTP: the store (GET, DELETE, LRU by
 * access, durability across /__admin/restart and a process restart), named conversations, the
 * Idempotency-Key cache, a stream cut short, and /v1/runs chaining onto a stored response.
 * (Byte-level parity with the real 0.19.0 gateway: packages/diff/test/responses-live-parity/.)
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { type Client, openClients, startClient } from "../support.js"

const open = openClients()

type Body = Record<string, unknown>
const textOf = (body: Body): string => {
  const output = body["output"] as Array<Body>
  const message = output[output.length - 1] as { content: Array<{ text: string }> }
  return message.content[0]?.text ?? ""
}
const create = async (c: Client, body: Body, headers: Record<string, string> = {}) => {
  const res = await c.request("POST", "/v1/responses", { body, headers })
  return { status: res.status, headers: res.headers, body: (await res.json()) as Body }
}

describe.each(["0.19.0", "0.21.0"] as const)("Responses API on %s", (pin) => {
  it("answers the scripted text with ids, usage and a uuid session id", async () => {
    const c = await open({ hermesVersion: pin })
    await c.script({ turns: [{ replies: [{ text: "Hello there", usage: { prompt_tokens: 12, completion_tokens: 3 } }] }] })
    const r = await create(c, { input: "hi", model: "m1" })
    expect(r.status).toBe(200)
    expect(Object.keys(r.body)).toEqual(["id", "object", "status", "created_at", "model", "output", "usage"])
    expect(r.body).toMatchObject({ object: "response", status: "completed", model: "m1" })
    expect(r.body["id"]).toMatch(/^resp_[0-9a-f]{28}$/)
    expect(textOf(r.body)).toBe("Hello there")
    expect(r.body["usage"]).toEqual({ input_tokens: 12, output_tokens: 3, total_tokens: 15 })
    expect(r.headers.get("x-hermes-session-id")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it("stores by default: GET returns it, DELETE removes it once, store=false keeps nothing", async () => {
    const c = await open({ hermesVersion: pin })
    const kept = await create(c, { input: "keep me" })
    const id = String(kept.body["id"])
    const got = await c.json("GET", `/v1/responses/${id}`)
    expect(got).toMatchObject({ status: 200, body: kept.body })
    const del = await c.json("DELETE", `/v1/responses/${id}`)
    expect(del).toMatchObject({ status: 200, body: { id, object: "response", deleted: true } })
    const again = await c.json("DELETE", `/v1/responses/${id}`)
    expect(again.status).toBe(404)
    expect((await c.json("GET", `/v1/responses/${id}`)).body).toEqual({
      error: { message: `Response not found: ${id}`, type: "invalid_request_error", param: null, code: null }
    })
    const unstored = await create(c, { input: "forget me", store: "false" })
    expect((await c.json("GET", `/v1/responses/${String(unstored.body["id"])}`)).status).toBe(404)
  })

  it("chains: previous_response_id carries the session; an unknown id is a 404 that changes nothing", async () => {
    const c = await open({ hermesVersion: pin })
    const first = await create(c, { input: "one" })
    await c.script({ turns: [{ replies: [{ text: "two" }] }] })
    const second = await create(c, { input: "two?", previous_response_id: first.body["id"] })
    expect(textOf(second.body)).toBe("two")
    expect(second.headers.get("x-hermes-session-id")).toBe(first.headers.get("x-hermes-session-id"))
    const missing = await create(c, { input: "x", previous_response_id: "resp_nope" })
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({
      error: { message: "Previous response not found: resp_nope", type: "invalid_request_error", param: null, code: null }
    })
    // the Script turn is still there for the next accepted request
    await c.script({ turns: [{ replies: [{ text: "next" }] }] })
    expect(textOf((await create(c, { input: "three?" })).body)).toBe("next")
  })

  it("a named conversation follows its latest response; deleting that response restarts it", async () => {
    const c = await open({ hermesVersion: pin })
    const a = await create(c, { input: "a", conversation: "chat-1" })
    const b = await create(c, { input: "b", conversation: "chat-1" })
    expect(b.headers.get("x-hermes-session-id")).toBe(a.headers.get("x-hermes-session-id"))
    await c.request("DELETE", `/v1/responses/${String(b.body["id"])}`)
    const fresh = await create(c, { input: "c", conversation: "chat-1" })
    expect(fresh.headers.get("x-hermes-session-id")).not.toBe(a.headers.get("x-hermes-session-id"))
  })

  it("keeps the pin's 100 responses, evicting the least recently accessed", async () => {
    const c = await open({ hermesVersion: pin })
    await c.admin("/clock", { freeze: true })
    const ids: Array<string> = []
    for (let i = 0; i < 100; i++) ids.push(String((await create(c, { input: `n${i}` })).body["id"]))
    // touching the oldest makes the second oldest the eviction candidate
    expect((await c.json("GET", `/v1/responses/${ids[0]}`)).status).toBe(200)
    await create(c, { input: "one too many" })
    expect((await c.json("GET", `/v1/responses/${ids[0]}`)).status).toBe(200)
    expect((await c.json("GET", `/v1/responses/${ids[1]}`)).status).toBe(404)
    expect((await c.json("GET", `/v1/responses/${ids[2]}`)).status).toBe(200)
  })

  it("stored responses survive /__admin/restart and a process restart on the same data dir", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "hermetic-resp-"))
    try {
      const c = await startClient({ hermesVersion: pin, dataDir })
      await c.script({ turns: [{ replies: [{ text: "durable" }] }] })
      const r = await create(c, { input: "remember", conversation: "kept" })
      const id = String(r.body["id"])
      await c.admin("/restart")
      expect((await c.json("GET", `/v1/responses/${id}`)).body).toEqual(r.body)
      await c.emu.close()
      const again = await open({ hermesVersion: pin, dataDir })
      expect((await again.json("GET", `/v1/responses/${id}`)).body).toEqual(r.body)
      const next = await create(again, { input: "and now?", conversation: "kept" })
      expect(next.headers.get("x-hermes-session-id")).toBe(r.headers.get("x-hermes-session-id"))
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it("Idempotency-Key replays the agent outcome under a new id; another body recomputes; restart forgets", async () => {
    const c = await open({ hermesVersion: pin })
    await c.script({ turns: [{ replies: [{ text: "first answer" }] }, { replies: [{ text: "second answer" }] }, { replies: [{ text: "third answer" }] }] })
    const k = { "Idempotency-Key": "key-1" }
    const a = await create(c, { input: "same" }, k)
    const b = await create(c, { input: "same" }, k)
    expect(textOf(b.body)).toBe("first answer")
    expect(b.body["id"]).not.toBe(a.body["id"])
    expect((await c.json("GET", `/v1/responses/${String(b.body["id"])}`)).status).toBe(200)
    const other = await create(c, { input: "different" }, k)
    expect(textOf(other.body)).toBe("second answer")
    await c.admin("/restart")
    const afterRestart = await create(c, { input: "different" }, k)
    expect(textOf(afterRestart.body)).toBe("third answer")
  })

  it("a client gone while the reply is held leaves an incomplete snapshot once upstream would notice (live-observed)", async () => {
    const c = await open({ hermesVersion: pin })
    await c.script({ turns: [{ replies: [{ hold: "h1", text: "too late" }] }] })
    const res = await c.request("POST", "/v1/responses", { body: { input: "stream", stream: true } })
    const reader = (res.body as ReadableStream<Uint8Array>).getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    const id = /"id": "(resp_[0-9a-f]{28})"/.exec(first)?.[1] ?? ""
    expect(first.startsWith("event: response.created\n")).toBe(true)
    await reader.cancel()
    // nothing is written while the reply is held, so nothing notices the client is gone
    expect((await c.json("GET", `/v1/responses/${id}`)).body).toMatchObject({ status: "in_progress", output: [] })
    await c.release("h1")
    for (let i = 0; i < 200; i++) {
      if ((await c.json("GET", `/v1/responses/${id}`)).body["status"] === "incomplete") break
      await new Promise((f) => setTimeout(f, 10))
    }
    expect((await c.json("GET", `/v1/responses/${id}`)).body).toEqual({
      id,
      object: "response",
      status: "incomplete",
      created_at: expect.any(Number),
      model: "hermes-agent",
      output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "too late" }] }],
      usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 }
    })
  })

  it("a stream to an allowed origin carries the CORS headers its handler sets (no security headers); none without Origin", async () => {
    const c = await open({ hermesVersion: pin, corsOrigins: ["http://app.example"] })
    const res = await c.request("POST", "/v1/responses", { body: { input: "stream", stream: true }, headers: { origin: "http://app.example" } })
    expect(res.status).toBe(200)
    expect(res.headers.get("access-control-allow-origin")).toBe("http://app.example")
    expect(res.headers.get("access-control-max-age")).toBe("600")
    expect(res.headers.get("vary")).toBe("Origin")
    expect(res.headers.get("x-hermes-session-id")).not.toBeNull()
    expect(res.headers.get("content-security-policy")).toBeNull()
    await res.text()
    const plain = await c.request("POST", "/v1/responses", { body: { input: "stream", stream: true } })
    expect(plain.headers.get("access-control-allow-origin")).toBeNull()
    await plain.text()
  })

  it("a client gone after a tool round keeps the tool items already listed in its incomplete snapshot (live-observed)", async () => {
    const c = await open({ hermesVersion: pin, enabledToolsets: ["todo"] })
    const todo = (id: string) => ({ name: "todo", id, arguments: { todos: [{ id, content: id, status: "pending" }] } })
    await c.script({ turns: [{ replies: [{ toolCalls: [todo("call_t1")] }, { hold: "h3", toolCalls: [todo("call_t2")] }, { text: "never streamed" }] }] })
    const res = await c.request("POST", "/v1/responses", { body: { input: "plan", stream: true } })
    const reader = (res.body as ReadableStream<Uint8Array>).getReader()
    let read = ""
    // created, the first call's item added and done, its output's item added and done
    while ((read.match(/\n\n/g) ?? []).length < 5) read += new TextDecoder().decode((await reader.read()).value)
    const id = /"id": "(resp_[0-9a-f]{28})"/.exec(read)?.[1] ?? ""
    await reader.cancel()
    // the model call is parked on the hold before the release lets it go
    expect((await c.json("GET", `/v1/responses/${id}`)).body["status"]).toBe("in_progress")
    await c.release("h3")
    for (let i = 0; i < 200; i++) {
      if ((await c.json("GET", `/v1/responses/${id}`)).body["status"] === "incomplete") break
      await new Promise((f) => setTimeout(f, 10))
    }
    const stored = (await c.json("GET", `/v1/responses/${id}`)).body
    expect(stored["status"]).toBe("incomplete")
    // the second call is listed before its item is written; its done item is the write that fails
    expect((stored["output"] as Array<Record<string, unknown>>).map((item) => [item["type"], item["call_id"]])).toEqual([
      ["function_call", "call_t1"],
      ["function_call_output", "call_t1"],
      ["function_call", "call_t2"]
    ])
  })

  it("a streamed function_call item's arguments are json.dumps of what json.loads read (NaN, 1.0, -0.0, big ints, key order)", async () => {
    const c = await open({ hermesVersion: pin, enabledToolsets: ["todo"] })
    const args = '{"todos": [{"id": "n1", "content": "floats", "status": "pending"}],  "2": 1.0, "weight": NaN, "big": 123456789012345678901234567890, "1": -0.0}'
    await c.script({ turns: [{ replies: [{ toolCalls: [{ id: "call_p1", name: "todo", arguments: args }] }, { text: "listed" }] }] })
    const text = await (await c.request("POST", "/v1/responses", { body: { input: "python numbers", stream: true } })).text()
    const added = text.split("\n\n").find((f) => f.startsWith("event: response.output_item.added") && f.includes('"function_call"')) ?? ""
    // upstream re-serializes the parsed dict: one space after each comma, Python's float and int texts
    expect(added).toContain(
      String.raw`"arguments": "{\"todos\": [{\"id\": \"n1\", \"content\": \"floats\", \"status\": \"pending\"}], \"2\": 1.0, \"weight\": NaN, \"big\": 123456789012345678901234567890, \"1\": -0.0}"`
    )
  })

  // read from the 0.19.0 source and recorded on it; 0.21.0's stream was not observed
  it.runIf(pin === "0.19.0")("a tool call with an empty id streams under a generated call id and is never completed (live-observed)", async () => {
    const c = await open({ hermesVersion: pin, enabledToolsets: ["todo"] })
    const todo = (id: string, n: string) => ({ name: "todo", id, arguments: { todos: [{ id: n, content: n, status: "pending" }] } })
    await c.script({ turns: [{ replies: [{ toolCalls: [todo("call_a", "1")] }, { toolCalls: [todo("", "2")] }, { text: "done" }] }] })
    const text = await (await c.request("POST", "/v1/responses", { body: { input: "plan", stream: true } })).text()
    const items = text.split("\n\n").filter((f) => f.startsWith("event: response.output_item.")).map((f) => {
      const data = JSON.parse(f.slice(f.indexOf("data: ") + 6)) as { item: Record<string, unknown> }
      return [f.slice(7, f.indexOf("\n")), data.item["type"], data.item["call_id"]]
    })
    const id = /"id": "resp_([0-9a-f]{28})"/.exec(text)?.[1] ?? ""
    // upstream falls back to call_<response id hex>_<start count> and finds no pending call for a
    // completion without an id: no done item, no output (tools-responses-stream-repeated-and-empty-call-ids)
    const generated = `call_${id}_2`
    expect(items).toEqual([
      ["response.output_item.added", "function_call", "call_a"],
      ["response.output_item.done", "function_call", "call_a"],
      ["response.output_item.added", "function_call_output", "call_a"],
      ["response.output_item.done", "function_call_output", "call_a"],
      ["response.output_item.added", "function_call", generated],
      ["response.output_item.added", "message", undefined],
      ["response.output_item.done", "message", undefined]
    ])
    const stored = (await c.json("GET", `/v1/responses/resp_${id}`)).body
    expect((stored["output"] as Array<Record<string, unknown>>).map((item) => [item["type"], item["call_id"]])).toEqual([
      ["function_call", "call_a"],
      ["function_call_output", "call_a"],
      ["function_call", generated],
      ["message", undefined]
    ])
  })

  it("a held reply streams once released; the stored response is the terminal one", async () => {
    const c = await open({ hermesVersion: pin })
    await c.script({ turns: [{ replies: [{ hold: "h2", text: "abc", chunks: ["a", "b", "c"] }] }] })
    const pending = c.request("POST", "/v1/responses", { body: { input: "stream", stream: true } })
    await c.release("h2")
    const text = await (await pending).text()
    const events = text.split("\n\n").filter((f) => f !== "").map((f) => f.slice(7, f.indexOf("\n")))
    expect(events).toEqual([
      "response.created",
      "response.output_item.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.output_item.done",
      "response.completed"
    ])
    expect(text).toContain('"delta": "abc"')
    const id = /"id": "(resp_[0-9a-f]{28})"/.exec(text)?.[1] ?? ""
    expect((await c.json("GET", `/v1/responses/${id}`)).body["status"]).toBe("completed")
  })

  it("/v1/runs with previous_response_id runs in the chained session; an unknown id is ignored", async () => {
    const c = await open({ hermesVersion: pin })
    const r = await create(c, { input: "start" })
    const session = r.headers.get("x-hermes-session-id")
    const run = await c.json("POST", "/v1/runs", { input: "continue", previous_response_id: r.body["id"] })
    expect(run.status).toBe(202)
    const status = await c.waitForStatus(String(run.body["run_id"]), ["completed"])
    expect(status["session_id"]).toBe(session)
    const unknown = await c.json("POST", "/v1/runs", { input: "x", previous_response_id: "resp_nope" })
    expect(unknown.status).toBe(202)
    const own = await c.waitForStatus(String(unknown.body["run_id"]), ["completed"])
    expect(own["session_id"]).toBe(unknown.body["run_id"])
  })
})

describe("what differs between the pins", () => {
  const toolTurn = {
    turns: [
      {
        replies: [
          { toolCalls: [{ id: "call_abc", name: "terminal", arguments: { command: "ls" } }] },
          { text: "done" }
        ]
      }
    ]
  }

  it("0.21.0 gives non-streamed tool items fc_/fco_ ids and a status; 0.19.0 writes them bare", async () => {
    const old = await open({ hermesVersion: "0.19.0" })
    const now = await open({ hermesVersion: "0.21.0" })
    await old.script(toolTurn)
    await now.script(toolTurn)
    const [a, b] = [await create(old, { input: "tool" }), await create(now, { input: "tool" })]
    expect((a.body["output"] as Array<Body>)[0]).toEqual({
      type: "function_call",
      name: "terminal",
      arguments: '{"command":"ls"}',
      call_id: "call_abc"
    })
    expect((b.body["output"] as Array<Body>)[0]).toEqual({
      id: expect.stringMatching(/^fc_[0-9a-f]{24}$/),
      type: "function_call",
      status: "completed",
      name: "terminal",
      arguments: '{"command":"ls"}',
      call_id: "call_abc"
    })
    expect((b.body["output"] as Array<Body>)[1]).toMatchObject({ id: expect.stringMatching(/^fco_[0-9a-f]{24}$/) })
  })

  it("0.19.0 repeats earlier turns' tool calls in a chained output (as observed live); 0.21.0 lists this turn only", async () => {
    const counts: Record<string, Array<number>> = {}
    for (const pin of ["0.19.0", "0.21.0"] as const) {
      const c = await open({ hermesVersion: pin })
      await c.script(toolTurn)
      let prev = await create(c, { input: "tool" })
      counts[pin] = [(prev.body["output"] as Array<Body>).length]
      for (const input of ["two", "three"]) {
        prev = await create(c, { input, previous_response_id: prev.body["id"] })
        counts[pin]?.push((prev.body["output"] as Array<Body>).length)
      }
    }
    expect(counts).toEqual({ "0.19.0": [3, 3, 5], "0.21.0": [3, 1, 1] })
  })
})
