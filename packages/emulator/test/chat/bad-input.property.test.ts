/**
 * Arbitrary bodies, content parts and headers against /v1/chat/completions and the discovery
 * routes, on both pins: every answer is one upstream gives (its envelopes and messages; aiohttp's
 * plain 500 only where upstream's handler calls `.get` on a non-dict), and a rejected request
 * neither plays the queued Script turn nor leaves anything behind.
 */
import fc from "fast-check"
import { propertyParams } from "../../../../test/support/propertySeed.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningEmulator, startEmulator } from "../../src/index.js"
import { ADMIN_HEADERS, API_KEY } from "../support.js"

const jsonValue = fc.jsonValue({ maxDepth: 2 })
const part = fc.oneof(
  fc.record(
    {
      type: fc.constantFrom("text", "input_text", "output_text", "input_image", "image_url", "file", "input_file", "audio", "", " TEXT "),
      text: fc.oneof(fc.string(), jsonValue),
      image_url: fc.oneof(
        fc.constantFrom("https://e.x/a.png", "data:image/png;base64,AA", "data:image/png", "data:text/plain,x", "ftp://x", " "),
        fc.record({ url: fc.oneof(fc.constantFrom("http://e.x/a.png", "DATA:IMAGE/gif,x", ""), jsonValue), detail: jsonValue }, { requiredKeys: [] }),
        jsonValue
      ),
      detail: jsonValue
    },
    { requiredKeys: [] }
  ),
  fc.string(),
  jsonValue
)
const message = fc.oneof(
  fc.record(
    {
      role: fc.oneof(fc.constantFrom("user", "user", "assistant", "system", "tool", "developer"), jsonValue),
      content: fc.oneof(fc.string(), fc.array(part, { maxLength: 3 }), jsonValue)
    },
    { requiredKeys: [] }
  ),
  jsonValue
)
const chatBody = fc.oneof(
  fc.record(
    {
      messages: fc.oneof(fc.array(message, { maxLength: 4 }), jsonValue),
      stream: fc.oneof(fc.boolean(), fc.constantFrom("true", "false", "yes", "0", 1, 0.0), jsonValue),
      model: jsonValue,
      provider: jsonValue,
      model_options: jsonValue,
      tools: jsonValue
    },
    { requiredKeys: [] }
  ).map((o) => JSON.stringify(o)),
  jsonValue.map((v) => JSON.stringify(v)),
  fc.string()
)
const headerValue = fc.oneof(fc.stringMatching(/^[\x21-\x7e]{0,300}$/), fc.constantFrom("a/b", "..", "c:x", " ", "ok-id"))

const request = fc.record({
  pin: fc.constantFrom("0.19.0", "0.21.0"),
  route: fc.constantFrom("chat", "chat", "chat", "chat", "models", "capabilities", "health.detailed", "skills", "toolsets", "model.options"),
  body: chatBody,
  auth: fc.constantFrom("right", "right", "right", "none", "wrong"),
  idempotencyKey: fc.option(headerValue, { nil: undefined }),
  sessionId: fc.option(headerValue, { nil: undefined }),
  sessionKey: fc.option(headerValue, { nil: undefined })
})

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

/** Upstream calls `.get` on the body and on every message up to the first rejected one. */
const mayCrash = (body: string): "must" | "may" | "never" => {
  let v: unknown
  try {
    v = JSON.parse(body)
  } catch {
    return "never"
  }
  if (!isDict(v)) return "must"
  const messages = v["messages"]
  return Array.isArray(messages) && messages.some((m) => !isDict(m)) ? "may" : "never"
}

const MESSAGES_400 = new Set([
  "Invalid JSON in request body",
  "Missing or invalid 'messages' field",
  "No user message found in messages",
  "Only image data URLs are supported. Non-image data payloads are not supported.",
  "Image inputs must use http(s) URLs or data:image/... URLs.",
  "Image parts must include a non-empty image URL.",
  "Image detail must be a non-empty string when provided.",
  "Inline image inputs are supported, but uploaded files and document inputs are not supported on this endpoint.",
  "Invalid session ID",
  "Session ID too long",
  "Invalid session key",
  "Session key too long"
])

const PATHS: Record<string, string> = {
  chat: "/v1/chat/completions",
  models: "/v1/models",
  capabilities: "/v1/capabilities",
  "health.detailed": "/health/detailed",
  skills: "/v1/skills",
  toolsets: "/v1/toolsets",
  "model.options": "/api/model/options"
}

describe("bad input on chat completions and discovery", () => {
  const emus = new Map<string, RunningEmulator>()
  beforeAll(async () => {
    for (const pin of ["0.19.0", "0.21.0"] as const) emus.set(pin, await startEmulator({ hermesVersion: pin, apiKey: API_KEY }))
  })
  afterAll(async () => {
    await Promise.all([...emus.values()].map((e) => e.close()))
  })

  it("answers with upstream's envelopes, crashes only where upstream can, changes nothing on rejection", async () => {
    let namespace = 0
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const emu = emus.get(r.pin) as RunningEmulator
        const ns = `c${namespace++}`
        const admin = (path: string, body?: unknown) =>
          fetch(`${emu.url}/__admin${path}`, {
            method: body === undefined ? "GET" : "POST",
            headers: { "x-hermetic-namespace": ns, ...ADMIN_HEADERS },
            ...(body === undefined ? {} : { body: JSON.stringify(body) })
          })
        await admin("/script", { turns: [{ replies: [{ text: "scripted" }] }] })
        const headers: Record<string, string> = { "x-hermetic-namespace": ns, "content-type": "application/json" }
        if (r.auth !== "none") headers["authorization"] = `Bearer ${r.auth === "right" ? API_KEY : "wrong-key"}`
        if (r.idempotencyKey !== undefined) headers["idempotency-key"] = r.idempotencyKey
        if (r.sessionId !== undefined) headers["x-hermes-session-id"] = r.sessionId
        if (r.sessionKey !== undefined) headers["x-hermes-session-key"] = r.sessionKey
        const path = PATHS[r.route] ?? "/"
        const res = r.route === "chat"
          ? await fetch(`${emu.url}${path}`, { method: "POST", headers, body: r.body })
          : await fetch(`${emu.url}${path}`, { headers })
        const text = await res.text()
        const state = (await (await admin("/state")).json()) as { pending_turns: number; runs: number }

        if (r.route === "model.options" && r.pin === "0.19.0") {
          expect(res.status).toBe(404)
          expect(text).toBe("404: Not Found")
          return
        }
        if (r.auth !== "right") {
          expect(res.status).toBe(401)
          const body = JSON.parse(text) as { error: Record<string, unknown> }
          expect(Object.keys(body.error)).toEqual(["message", "type", "code"])
          expect(state.pending_turns).toBe(1)
          return
        }
        if (r.route !== "chat") {
          expect(res.status).toBe(200)
          expect(state.pending_turns).toBe(1)
          return
        }
        const crash = mayCrash(r.body)
        if (crash === "must") expect(res.status).toBe(500)
        if (res.status === 500) {
          expect(crash).not.toBe("never")
          expect(text).toBe("500 Internal Server Error\n\nServer got itself in trouble")
          expect(state.pending_turns).toBe(1)
          return
        }
        if (res.status === 200) {
          expect(state.pending_turns).toBe(0)
          expect(res.headers.get("x-hermes-session-id")).toMatch(/\S/)
          if (res.headers.get("content-type") === "text/event-stream") expect(text.endsWith("data: [DONE]\n\n")).toBe(true)
          else expect((JSON.parse(text) as { object: string }).object).toBe("chat.completion")
          return
        }
        // a rejection: upstream's 400 (or 0.21.0's route check), nothing consumed
        expect(res.status).toBe(400)
        expect(state.pending_turns).toBe(1)
        const error = (JSON.parse(text) as { error: Record<string, unknown> }).error
        expect(MESSAGES_400.has(String(error["message"])) || String(error["message"]).startsWith("Unsupported content part type ")).toBe(true)
        const keys = Object.keys(error).join(",")
        expect(["message,type", "message,type,param,code"]).toContain(keys)
        if (typeof error["code"] === "string") expect(error["param"]).toMatch(/^messages\[\d+\]\.content$/)
      }),
      propertyParams(18_01, { numRuns: 300 })
    )
  })
})
