/**
 * Arbitrary bodies and headers against the Responses routes, on both pins: every answer is one
 * upstream gives (its envelopes; aiohttp's plain 500 exactly where upstream's handler crashes),
 * and a rejected request neither runs the agent (the queued Script turn stays queued) nor stores
 * anything.
 */
import fc from "fast-check"
import { propertyParams } from "../../../../test/support/propertySeed.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningEmulator, startEmulator } from "../../src/index.js"
import { ADMIN_HEADERS, API_KEY } from "../support.js"

const jsonValue = fc.jsonValue({ maxDepth: 2 })
const part = fc.oneof(
  fc.record({ type: fc.constantFrom("text", "input_text", "output_text", "input_image", "image_url", "file", "weird", ""), text: fc.oneof(fc.string(), jsonValue), image_url: fc.oneof(fc.constantFrom("https://e.x/a.png", "data:image/png;base64,AA", "data:text/plain,x", "ftp://x", " "), jsonValue), detail: jsonValue }, { requiredKeys: [] }),
  fc.string(),
  jsonValue
)
const message = fc.oneof(
  fc.record({ role: fc.oneof(fc.constantFrom("user", "assistant", "system", "tool"), jsonValue), content: fc.oneof(fc.string(), fc.array(part, { maxLength: 3 }), jsonValue) }, { requiredKeys: [] }),
  fc.string(),
  jsonValue
)
const responseBody = fc.oneof(
  fc.record(
    {
      input: fc.oneof(fc.string(), fc.array(message, { maxLength: 3 }), jsonValue),
      instructions: jsonValue,
      previous_response_id: fc.oneof(fc.constant("resp_unknown"), jsonValue),
      conversation: fc.oneof(fc.constantFrom("conv-a", "conv-b"), jsonValue),
      conversation_history: fc.oneof(fc.array(message, { maxLength: 3 }), jsonValue),
      store: fc.oneof(fc.boolean(), fc.constantFrom("false", "yes"), jsonValue),
      stream: fc.oneof(fc.boolean(), fc.constantFrom("true", "0"), jsonValue),
      truncation: fc.oneof(fc.constant("auto"), jsonValue),
      model: jsonValue
    },
    { requiredKeys: [] }
  ).map((o) => JSON.stringify(o)),
  jsonValue.map((v) => JSON.stringify(v)),
  fc.string()
)
const visible = fc.stringMatching(/^[\x21-\x7e]{0,300}$/)

const request = fc.record({
  pin: fc.constantFrom("0.19.0", "0.21.0"),
  route: fc.constantFrom("create", "create", "create", "get", "delete"),
  body: responseBody,
  auth: fc.constantFrom("right", "right", "right", "none", "wrong"),
  idempotencyKey: fc.option(visible, { nil: undefined }),
  sessionKey: fc.option(visible, { nil: undefined }),
  responseId: fc.oneof(fc.constant("resp_unknown"), fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/))
})

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)
const truthy = (v: unknown) =>
  !(v === null || v === undefined || v === false || v === 0 || v === "" || (Array.isArray(v) && v.length === 0) || (isDict(v) && Object.keys(v).length === 0))
/**
 * What SQLite cannot bind (upstream passes the value straight to its query): containers, and ints
 * beyond 64 bits. JSON.stringify writes integers below 1e21 as digits (a Python int) and larger
 * ones with an exponent (a Python float, which binds).
 */
const unbindable = (v: unknown) =>
  Array.isArray(v) || isDict(v) || (typeof v === "number" && Number.isInteger(v) && (v >= 2 ** 63 || v < -(2 ** 63)) && Math.abs(v) < 1e21)

/**
 * Whether upstream's multimodal normalizer rejects a message's content with a 400 (a ValueError):
 * a part that is a dict of an unknown or file type, or an image part without an http(s) or
 * data:image URL, or with a detail that is not a non-empty string.
 */
const contentRejected = (content: unknown): boolean => {
  if (!Array.isArray(content)) return false
  return content.some((part) => {
    if (!isDict(part)) return false
    const type = typeof part["type"] === "string" ? part["type"].trim().toLowerCase() : ""
    if (["text", "input_text", "output_text"].includes(type)) return false
    if (!["image_url", "input_image"].includes(type)) return true
    const ref = part["image_url"]
    const url = isDict(ref) ? ref["url"] : ref
    const detail = isDict(ref) && "detail" in ref ? ref["detail"] : part["detail"]
    if (typeof url !== "string" || url.trim() === "") return true
    const lowered = url.trim().toLowerCase()
    if (lowered.startsWith("data:") ? !lowered.startsWith("data:image/") || !url.includes(",") : !lowered.startsWith("http://") && !lowered.startsWith("https://")) return true
    return detail !== null && detail !== undefined && (typeof detail !== "string" || detail.trim() === "")
  })
}

/** Where upstream's handler lets an exception escape, in its order of checks (null: it answers). */
const upstreamCrashes = (body: string): boolean => {
  let v: unknown
  try {
    v = JSON.parse(body)
  } catch {
    return false
  }
  if (!isDict(v)) return true
  if (v["input"] === null || v["input"] === undefined) return false
  if (truthy(v["conversation"]) && truthy(v["previous_response_id"])) return false
  if (truthy(v["conversation"])) return unbindable(v["conversation"])
  // an input that is neither a string nor a list is a 400 before any lookup
  if (typeof v["input"] !== "string" && !Array.isArray(v["input"])) return false
  // a message whose content the multimodal normalizer rejects is a 400 before any lookup
  if (Array.isArray(v["input"]) && v["input"].some((m) => isDict(m) && contentRejected(m["content"]))) return false
  // past the input and history checks the previous response is looked up
  return truthy(v["previous_response_id"]) && unbindable(v["previous_response_id"]) && !truthy(v["conversation_history"])
}

const ENVELOPE_KEYS = [
  ["message", "type", "param", "code"],
  ["message", "type"],
  ["message", "type", "code"]
].map((k) => k.join(","))

describe("bad input on the Responses routes", () => {
  const emus = new Map<string, RunningEmulator>()
  beforeAll(async () => {
    for (const pin of ["0.19.0", "0.21.0"] as const) emus.set(pin, await startEmulator({ hermesVersion: pin, apiKey: API_KEY }))
  })
  afterAll(async () => {
    await Promise.all([...emus.values()].map((e) => e.close()))
  })

  it("answers with upstream's envelopes, crashes only where upstream crashes, changes nothing on rejection", async () => {
    let namespace = 0
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const emu = emus.get(r.pin) as RunningEmulator
        const ns = `p${namespace++}`
        const admin = (path: string, body?: unknown) =>
          fetch(`${emu.url}/__admin${path}`, { method: body === undefined ? "GET" : "POST", headers: { "x-hermetic-namespace": ns, ...ADMIN_HEADERS }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
        await admin("/script", { turns: [{ replies: [{ text: "scripted" }] }] })
        const headers: Record<string, string> = { "x-hermetic-namespace": ns, "content-type": "application/json" }
        if (r.auth !== "none") headers["authorization"] = `Bearer ${r.auth === "right" ? API_KEY : "wrong-key"}`
        if (r.idempotencyKey !== undefined) headers["idempotency-key"] = r.idempotencyKey
        if (r.sessionKey !== undefined) headers["x-hermes-session-key"] = r.sessionKey
        const res = r.route === "create"
          ? await fetch(`${emu.url}/v1/responses`, { method: "POST", headers, body: r.body })
          : await fetch(`${emu.url}/v1/responses/${r.responseId}`, { method: r.route === "get" ? "GET" : "DELETE", headers })
        const text = await res.text()
        const pending = ((await (await admin("/state")).json()) as { pending_turns: number }).pending_turns
        const sessionKeyOk = r.sessionKey === undefined || r.sessionKey.trim().length <= 256
        const crashes = r.route === "create" && r.auth === "right" && sessionKeyOk && upstreamCrashes(r.body)
        expect(res.status === 500).toBe(crashes)
        if (crashes) {
          expect(text).toBe("500 Internal Server Error\n\nServer got itself in trouble")
          expect(pending).toBe(1)
          return
        }
        expect([200, 400, 401, 403, 404]).toContain(res.status)
        if (res.status === 200) {
          expect(r.route).toBe("create")
          return
        }
        const body = JSON.parse(text) as { error: Record<string, unknown> }
        expect(ENVELOPE_KEYS).toContain(Object.keys(body.error).join(","))
        expect(typeof body.error["message"]).toBe("string")
        // rejected: the agent never ran (its Script turn is still queued), and a response is only
        // ever stored after the agent ran
        expect(pending).toBe(1)
      }),
      propertyParams(15_901, { numRuns: 250 })
    )
  })
})
