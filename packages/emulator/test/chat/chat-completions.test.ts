/**
 * /v1/chat/completions behaviours beyond the recorded replay: the shared concurrency cap, draining,
 * no-key mode, the derived session id, CORS on streams, 0.21.0's provider check, and the Layer.
 */
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { journalOf, layer } from "../../src/index.js"
import { Emulator } from "../../src/Emulator.js"
import { ADMIN_HEADERS, API_KEY, dataEvents, readSse, startClient } from "../support.js"

const chat = (content: unknown, extra: Record<string, unknown> = {}) => ({ messages: [{ role: "user", content }], ...extra })
const pending = async (c: Awaited<ReturnType<typeof startClient>>) =>
  ((await (await fetch(`${c.emu.url}/__admin/state`, { headers: ADMIN_HEADERS })).json()) as { pending_turns: number }).pending_turns

describe("chat completions and the shared admission gate", () => {
  it("runs and chat share one concurrency cap; a rejected chat consumes no Script turn", async () => {
    const c = await startClient({ hermesVersion: "0.19.0", maxConcurrentRuns: 1 })
    try {
      await c.script({ turns: [{ replies: [{ hold: "cap", text: "run done" }] }, { replies: [{ text: "chat done" }] }] })
      const run = await c.json("POST", "/v1/runs", { input: "hold the slot" })
      await c.waitForStatus(String(run.body["run_id"]), ["running"])
      const refused = await c.request("POST", "/v1/chat/completions", { body: chat("hi") })
      expect(refused.status).toBe(429)
      expect(refused.headers.get("retry-after")).toBe("1")
      expect(await refused.json()).toEqual({
        error: { message: "Too many concurrent runs (max 1)", type: "rate_limit_error", param: null, code: "rate_limit_exceeded" }
      })
      expect(await pending(c)).toBe(1)
      await c.release("cap")
      await c.waitForStatus(String(run.body["run_id"]), ["completed"])
      const ok = await c.json("POST", "/v1/chat/completions", chat("hi"))
      expect(ok.status).toBe(200)
      expect(((ok.body["choices"] as Array<{ message: { content: string } }>)[0])?.message.content).toBe("chat done")
    } finally {
      await c.emu.close()
    }
  })

  it("a streaming chat's client gone over a socket interrupts the agent: it makes no model call after that", async () => {
    const c = await startClient({ hermesVersion: "0.21.0" })
    try {
      const journal = journalOf(c.emu)
      await journal.keepBodies()
      await c.script({ turns: [{ replies: [{ hold: "gone", toolCalls: [{ name: "todo" }] }, { text: "never asked for" }] }] })
      const stream = await c.request("POST", "/v1/chat/completions", { body: chat("go", { stream: true }) })
      const reader = (stream.body as ReadableStream<Uint8Array>).getReader()
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('"role": "assistant"')
      // the socket closes (fetch drops a connection whose body is cancelled unread)
      await reader.cancel()
      await new Promise((resolve) => setTimeout(resolve, 50))
      await c.release("gone")
      const deadline = Date.now() + 5000
      while ((await pending(c)) !== 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(await journal.modelCallsOf({ operation: "chat.completions" })).toHaveLength(1)
    } finally {
      await c.emu.close()
    }
  })

  it("a streaming chat holds its slot until the turn ends", async () => {
    const c = await startClient({ hermesVersion: "0.21.0", maxConcurrentRuns: 1 })
    try {
      await c.script({ turns: [{ replies: [{ hold: "s", text: "streamed", chunks: ["str", "eamed"] }] }] })
      const stream = await c.request("POST", "/v1/chat/completions", { body: chat("go", { stream: true }) })
      expect(stream.status).toBe(200)
      const blocked = await c.request("POST", "/v1/runs", { body: { input: "x" } })
      expect(blocked.status).toBe(429)
      await c.release("s")
      const frames = await readSse(stream)
      expect(dataEvents(frames.slice(0, -1)).map((e) => (e["choices"] as Array<{ delta: unknown }>)[0]?.delta)).toEqual([
        { role: "assistant" },
        { content: "str" },
        { content: "eamed" },
        {}
      ])
      expect(frames[frames.length - 1]).toBe("data: [DONE]")
    } finally {
      await c.emu.close()
    }
  })

  it("a draining gateway answers 503 gateway_draining", async () => {
    const c = await startClient({ hermesVersion: "0.19.0" })
    try {
      await c.admin("/drain", { draining: true })
      const res = await c.request("POST", "/v1/chat/completions", { body: chat("hi") })
      expect(res.status).toBe(503)
      expect(res.headers.get("retry-after")).toBe("1")
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("gateway_draining")
    } finally {
      await c.emu.close()
    }
  })

  it("without a configured key, session headers are refused with 403 and plain chat works", async () => {
    const c = await startClient({ hermesVersion: "0.19.0", apiKey: "" })
    try {
      const id = await c.request("POST", "/v1/chat/completions", { body: chat("hi"), auth: "none", headers: { "x-hermes-session-id": "s1" } })
      expect(id.status).toBe(403)
      expect(await id.json()).toEqual({
        error: {
          message: "Session continuation requires API key authentication. Configure API_SERVER_KEY to enable this feature.",
          type: "invalid_request_error",
          param: null,
          code: null
        }
      })
      const key = await c.request("POST", "/v1/chat/completions", { body: chat("hi"), auth: "none", headers: { "x-hermes-session-key": "k" } })
      expect(key.status).toBe(403)
      expect(await pending(c)).toBe(0)
      const ok = await c.request("POST", "/v1/chat/completions", { body: chat("hi"), auth: "none" })
      expect(ok.status).toBe(200)
    } finally {
      await c.emu.close()
    }
  })

  it("the derived session id hashes the system prompt and Python's str() of the first user content", async () => {
    const c = await startClient({ hermesVersion: "0.19.0" })
    try {
      const parts = [{ type: "text", text: "look" }, { type: "image_url", image_url: { url: "https://x/y.png" } }]
      const res = await c.request("POST", "/v1/chat/completions", {
        body: { messages: [{ role: "system", content: [{ type: "text", text: "s1" }, "s2"] }, { role: "user", content: parts }] }
      })
      expect(res.status).toBe(200)
      const seed = "s1\ns2\n[{'type': 'text', 'text': 'look'}, {'type': 'image_url', 'image_url': {'url': 'https://x/y.png'}}]"
      const expected = `api-${createHash("sha256").update(seed).digest("hex").slice(0, 16)}`
      expect(res.headers.get("x-hermes-session-id")).toBe(expected)
      const named = await c.request("POST", "/v1/chat/completions", { body: chat("hi"), headers: { "x-hermes-session-id": "  mine  " } })
      expect(named.headers.get("x-hermes-session-id")).toBe("mine")
      const drive = await c.request("POST", "/v1/chat/completions", { body: chat("hi"), headers: { "x-hermes-session-id": "c:x" } })
      expect(drive.status).toBe(400)
    } finally {
      await c.emu.close()
    }
  })

  it("reads the session header's bytes as aiohttp does (UTF-8, surrogateescape): a lone byte is no letter, and state.db keeps nothing under it", async () => {
    const c = await startClient({ hermesVersion: "0.19.0" })
    try {
      // header values are bytes, one char each: "\xe9" is the lone byte 0xE9, "\xc3\xa9" the UTF-8 of é
      const lone = await c.request("POST", "/v1/chat/completions", { body: chat("one"), headers: { "x-hermes-session-id": "\xe9:h" } })
      expect(lone.status).toBe(200)
      expect(lone.headers.get("x-hermes-session-id")).toBe(":h")
      expect((await c.json<{ data: Array<{ id: string }> }>("GET", "/api/sessions")).body.data).toEqual([])
      const letter = await c.request("POST", "/v1/chat/completions", { body: chat("two"), headers: { "x-hermes-session-id": "\xc3\xa9:h" } })
      expect(letter.status).toBe(400)
      const utf8 = await c.request("POST", "/v1/chat/completions", { body: chat("three"), headers: { "x-hermes-session-id": "\xc3\xa9x" } })
      expect(utf8.status).toBe(200)
      expect(utf8.headers.get("x-hermes-session-id")).toBe("\xc3\xa9x")
      expect((await c.json<{ data: Array<{ id: string }> }>("GET", "/api/sessions")).body.data.map((s) => s.id)).toEqual(["\u00e9x"])
      // a session id from the path is echoed as its UTF-8 bytes too
      const path = await c.request("POST", "/api/sessions/%C3%A9x/chat", { body: { input: "four" } })
      expect(path.status).toBe(200)
      expect(path.headers.get("x-hermes-session-id")).toBe("\xc3\xa9x")
    } finally {
      await c.emu.close()
    }
  })

  it("a stream to an allowed origin carries the CORS headers once, before the session headers", async () => {
    const c = await startClient({ hermesVersion: "0.19.0", corsOrigins: ["http://app.example"] })
    try {
      const res = await c.request("POST", "/v1/chat/completions", {
        body: chat("hi", { stream: true }),
        headers: { origin: "http://app.example", "x-hermes-session-key": "k1" }
      })
      expect(res.status).toBe(200)
      expect(res.headers.get("access-control-allow-origin")).toBe("http://app.example")
      expect(res.headers.get("x-hermes-session-key")).toBe("k1")
      expect(res.headers.get("content-security-policy")).toBeNull()
      await res.text()
      const denied = await c.request("POST", "/v1/chat/completions", { body: chat("hi"), headers: { origin: "http://evil.example" } })
      expect(denied.status).toBe(403)
      expect(await denied.text()).toBe("")
    } finally {
      await c.emu.close()
    }
  })
})

describe("0.21.0 model selection", () => {
  it("a provider contradicting a model route is refused; the model is echoed verbatim", async () => {
    const c = await startClient({ hermesVersion: "0.21.0", modelRoutes: { fast: { model: "small", provider: "openrouter" } } })
    try {
      const conflict = await c.request("POST", "/v1/chat/completions", { body: chat("hi", { model: "fast", provider: "anthropic" }) })
      expect(conflict.status).toBe(400)
      expect(((await conflict.json()) as { error: { message: string } }).error.message).toBe(
        "Model route 'fast' is pinned to provider 'openrouter'. Remove 'provider' or use 'openrouter'."
      )
      expect(await pending(c)).toBe(0)
      const ok = await c.json("POST", "/v1/chat/completions", chat("hi", { model: "fast", provider: "openrouter", model_options: { reasoning_effort: "high" } }))
      expect(ok.status).toBe(200)
      expect(ok.body["model"]).toBe("fast")
      const listed = await c.json("GET", "/v1/models")
      expect((listed.body["data"] as Array<{ id: string }>).map((m) => m.id)).toEqual(["hermes-agent", "fast"])
    } finally {
      await c.emu.close()
    }
  })

  it("0.19.0 ignores provider", async () => {
    const c = await startClient({ hermesVersion: "0.19.0", modelRoutes: { fast: { model: "small", provider: "openrouter" } } })
    try {
      const res = await c.request("POST", "/v1/chat/completions", { body: chat("hi", { model: "fast", provider: "anthropic" }) })
      expect(res.status).toBe(200)
    } finally {
      await c.emu.close()
    }
  })
})

describe("chat completions through the Layer (no socket)", () => {
  it("answers non-streamed and streamed completions in process", async () => {
    const program = Effect.gen(function*() {
      const emu = yield* Emulator
      const post = (body: unknown) =>
        Effect.promise(() =>
          emu.fetch("http://emulator/v1/chat/completions", {
            method: "POST",
            headers: { authorization: `Bearer ${API_KEY}` },
            body: JSON.stringify(body)
          })
        )
      yield* Effect.promise(() =>
        emu.fetch("http://emulator/__admin/script", {
          method: "POST",
          headers: ADMIN_HEADERS,
          body: JSON.stringify({ turns: [{ replies: [{ text: "one" }] }, { replies: [{ text: "two", chunks: ["t", "wo"] }] }] })
        })
      )
      const plain = yield* post(chat("a"))
      const plainBody = (yield* Effect.promise(() => plain.json())) as { choices: Array<{ message: { content: string } }> }
      const streamed = yield* post(chat("b", { stream: true }))
      const frames = yield* Effect.promise(() => readSse(streamed))
      return { content: plainBody.choices[0]?.message.content, frames }
    })
    const out = await Effect.runPromise(Effect.scoped(Effect.provide(program, layer({ apiKey: API_KEY, hermesVersion: "0.19.0" }))))
    expect(out.content).toBe("one")
    const deltas = dataEvents(out.frames.slice(0, -1)).map((e) => (e["choices"] as Array<{ delta: { content?: string } }>)[0]?.delta.content)
    expect(deltas.filter((d) => d !== undefined).join("")).toBe("two")
  })
})
