import { Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { Emulator, expectNoRequest, expectRequest, findRequests, journalOf, layer, modelCallsOf } from "../../src/index.js"
import { makeRedactor, REDACTED } from "../../src/journal/Redaction.js"
import { ADMIN_HEADERS, API_KEY, openClients } from "../support.js"

const open = openClients()
const chat = (text: string) => ({ model: "hermes-agent", messages: [{ role: "user", content: text }] })

describe("verification journal over the control plane", () => {
  it("keeps no bodies and no model calls unless asked", async () => {
    const c = await open()
    await c.request("POST", "/v1/chat/completions", { body: chat("not kept") })
    const [entry] = await journalOf(c.emu).find({ operation: "chat.completions" })
    expect(entry).toMatchObject({ method: "POST", path: "/v1/chat/completions", status: 200, modelCalls: [] })
    expect(entry?.request).toBeUndefined()
    expect(JSON.stringify(await journalOf(c.emu).find())).not.toContain("not kept")
  })

  it("redacts a key carried by the session header and by the path, as the header map does", async () => {
    const c = await open({ journal: { bodies: true } })
    const token = "sk-live0123456789abcdef"
    await c.script({ turns: [{ replies: [{ text: "ok" }] }] })
    await c.request("POST", "/v1/chat/completions", { body: chat("hi"), headers: { "x-hermes-session-id": token } })
    await c.request("GET", `/api/sessions/${token}/messages?key=${token}`)
    const entries = await journalOf(c.emu).find()
    expect(entries.map((e) => e.path)).toEqual(["/v1/chat/completions", `/api/sessions/${REDACTED}/messages`])
    expect(entries.map((e) => e.session)).toEqual([REDACTED, REDACTED])
    expect(JSON.stringify(entries)).not.toContain(token)
  })

  it("with bodies on, keeps the request body and the messages the agent sent to the model", async () => {
    const c = await open({ journal: { bodies: true } })
    await c.script({ turns: [{ replies: [{ text: "Hi Ada" }] }] })
    const res = await c.request("POST", "/v1/chat/completions", { body: chat("hello, I am Ada"), headers: { "x-hermes-session-id": "sess-1" } })
    expect(res.status).toBe(200)
    const journal = journalOf(c.emu)
    const entry = await journal.expectRequest({ operation: "chat.completions", text: "I am Ada", session: "sess-1" })
    expect(entry.request?.body).toEqual(chat("hello, I am Ada"))
    expect(entry.request?.headers["authorization"]).toBe(REDACTED)
    expect(entry.request?.headers["x-hermes-session-id"]).toBe("sess-1")
    expect(entry.modelCalls).toHaveLength(1)
    expect(entry.modelCalls[0]?.messages).toEqual([{ role: "user", content: "hello, I am Ada" }])
    await expect(journal.expectRequest({ operation: "chat.completions", text: "Grace" })).rejects.toThrow(
      /expected at least one request matching \(chat.completions\) with text "Grace" in namespace "default", found 0[\s\S]*POST \/v1\/chat\/completions \(chat.completions\) → 200 session sess-1, 1 model call/
    )
  })

  it("attributes the model calls of a run (which play after the 202) to the request that started it", async () => {
    const c = await open({ journal: { bodies: true } })
    await c.script({ turns: [{ replies: [{ toolCalls: [{ name: "lookup", arguments: { q: "x" } }] }, { text: "done" }] }] })
    const { body } = await c.json("POST", "/v1/runs", { input: "find x" })
    await c.waitForStatus(String(body["run_id"]), ["completed"])
    const calls = await journalOf(c.emu).modelCallsOf({ operation: "runs.create" }, { withinMs: 2000 })
    // the second call carries the assistant's tool call and Hermes' unknown-tool result
    expect(calls.map((call) => (call.messages as Array<{ role: string }>).map((m) => m.role))).toEqual([["user"], ["user", "assistant", "tool"]])
    expect(JSON.stringify(calls[1]?.messages)).toContain("Tool 'lookup' does not exist")
  })

  it("never stores credentials: auth headers, key-like fields, bearer tokens and the configured keys", async () => {
    const c = await open({ journal: { bodies: true } })
    const body = {
      ...chat(`my key is ${API_KEY} and Bearer abc.def-123 and sk-live0123456789abcdef`),
      api_key: "plain-secret-1",
      metadata: { clientSecret: "plain-secret-2", nested: [{ access_token: "plain-secret-3" }], max_tokens: 5 }
    }
    await c.request("POST", "/v1/chat/completions", { body, headers: { "x-api-key": "plain-secret-4", cookie: "sid=plain-secret-5", "idempotency-key": "idem-1" } })
    const [entry] = await journalOf(c.emu).find({ operation: "chat.completions" })
    const text = JSON.stringify(entry)
    for (const secret of [API_KEY, "abc.def-123", "sk-live0123456789abcdef", "plain-secret-1", "plain-secret-2", "plain-secret-3", "plain-secret-4", "plain-secret-5"]) {
      expect(text).not.toContain(secret)
    }
    expect(entry?.request?.headers["idempotency-key"]).toBe("idem-1")
    expect((entry?.request?.body as { metadata: { max_tokens: number } }).metadata.max_tokens).toBe(5)
    expect(entry?.modelCalls[0]?.messages).toEqual([{ role: "user", content: `my key is ${REDACTED} and Bearer ${REDACTED} and ${REDACTED}` }])
  })

  it("bounds what it keeps: a long body is cut (and still redacted), a long transcript is left out", async () => {
    const c = await open({ journal: { bodies: true, maxBodyBytes: 200 } })
    const body = { api_key: "cut-secret-1", ...chat("x".repeat(1000)) }
    await c.request("POST", "/v1/chat/completions", { body })
    const [entry] = await journalOf(c.emu).find({ operation: "chat.completions" })
    expect(entry?.request).toMatchObject({ truncated: true, bodyBytes: JSON.stringify(body).length })
    expect(typeof entry?.request?.body).toBe("string")
    expect((entry?.request?.body as string).length).toBeLessThanOrEqual(200)
    expect(JSON.stringify(entry)).not.toContain("cut-secret-1")
    expect(entry?.modelCalls).toEqual([{ at: expect.any(Number), messages: [], truncated: true }])
  })

  it("is switched per namespace, and queried by method, path pattern, status, since and limit", async () => {
    const c = await open({}, "ns-a")
    const journal = journalOf(c.emu, { namespace: "ns-a" })
    expect(await journal.keepBodies()).toEqual({ bodies: true, maxBodyBytes: 65536 })
    const run = (await c.json("POST", "/v1/runs", { input: "one" })).body
    await c.waitForStatus(String(run["run_id"]), ["completed"])
    await c.request("GET", `/v1/runs/${String(run["run_id"])}/events`)
    await c.request("GET", "/v1/runs/run_missing")
    expect((await journal.find({ path: "/v1/runs/*" })).map((e) => e.status)).toEqual(expect.arrayContaining([200, 404]))
    expect((await journal.find({ method: "get", status: 404 })).map((e) => e.path)).toEqual(["/v1/runs/run_missing"])
    const first = (await journal.find())[0]
    expect((await journal.find({ since: first?.id ?? 0 })).every((e) => e.id > (first?.id ?? 0))).toBe(true)
    expect(await journal.find({ limit: 1 })).toHaveLength(1)
    // another namespace sees nothing of ns-a and keeps no bodies
    expect(await journalOf(c.emu, { namespace: "ns-b" }).find()).toEqual([])
    const bad = await fetch(`${c.emu.url}/__admin/journal?opreation=x`, { headers: ADMIN_HEADERS })
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain("unknown journal query parameter 'opreation'")
    await journal.clear()
    expect(await journal.find({ operation: "runs.create" })).toEqual([])
  })
})

describe("verification journal as an Effect service", () => {
  const program = Effect.gen(function*() {
    const emu = yield* Emulator
    const post = (path: string, body: unknown) =>
      Effect.promise(() =>
        emu.fetch(`http://emulator${path}`, { method: "POST", headers: { authorization: `Bearer ${API_KEY}` }, body: JSON.stringify(body) })
      )
    yield* post("/v1/responses", { input: "what is the weather?" })
    const entry = yield* expectRequest({ operation: "responses.create", text: "weather" })
    const calls = yield* modelCallsOf({ operation: "responses.create" })
    const missing = yield* Effect.either(expectRequest({ operation: "runs.create" }))
    const none = yield* Effect.either(expectNoRequest({ operation: "responses.create" }))
    return { entry, calls, missing, none, all: yield* findRequests() }
  })

  it("expectRequest finds what the app sent; a missing request fails with a typed error naming what was seen", async () => {
    const out = await Effect.runPromise(Effect.scoped(Effect.provide(program, layer({ apiKey: API_KEY, journal: { bodies: true } }))))
    expect(out.entry.request?.body).toEqual({ input: "what is the weather?" })
    expect(out.calls[0]?.messages).toEqual([{ role: "user", content: "what is the weather?" }])
    expect(Either.isLeft(out.missing) && out.missing.left._tag).toBe("JournalExpectationFailed")
    expect(Either.isLeft(out.missing) && out.missing.left.message).toContain("POST /v1/responses (responses.create) → 200")
    expect(Either.isLeft(out.none)).toBe(true)
    expect(out.all.map((e) => e.operation)).toEqual(["responses.create"])
  })
})

describe("redaction", () => {
  it("redacts key-like JSON in text it cannot parse, and leaves ordinary fields alone", () => {
    const r = makeRedactor(["literal-secret"])
    expect(r.text('{"password": "hunter2", "name": "ok", "api_key": "abc')).toBe(`{"password": "${REDACTED}", "name": "ok", "api_key": "${REDACTED}`)
    expect(r.json({ max_tokens: 3, prompt_tokens: 4, model: "m", session_key: "s", note: "has literal-secret" })).toEqual({
      max_tokens: 3,
      prompt_tokens: 4,
      model: "m",
      session_key: REDACTED,
      note: `has ${REDACTED}`
    })
  })
})
