/**
 * Arbitrary bodies and headers against every runs route: the answer is one upstream can give
 * (its 4xx envelopes, or aiohttp's plain 500 exactly where upstream's handler crashes), and a
 * rejected request changes no state.
 */
import fc from "fast-check"
import { propertyParams } from "../../../../test/support/propertySeed.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningEmulator, startEmulator } from "../../src/index.js"
import { ADMIN_HEADERS, API_KEY } from "../support.js"

const jsonValue = fc.jsonValue({ maxDepth: 3 })
const messageish = fc.oneof(
  fc.record({ role: fc.constantFrom("user", "assistant", "system", ""), content: fc.oneof(fc.string(), jsonValue) }, { requiredKeys: [] }),
  jsonValue
)
const runBody = fc.oneof(
  fc.record(
    {
      input: fc.oneof(fc.string(), fc.array(messageish, { maxLength: 3 }), jsonValue),
      instructions: jsonValue,
      session_id: jsonValue,
      model: jsonValue,
      conversation_history: fc.oneof(fc.array(messageish, { maxLength: 3 }), jsonValue),
      previous_response_id: jsonValue
    },
    { requiredKeys: [] }
  ).map((o) => JSON.stringify(o)),
  jsonValue.map((v) => JSON.stringify(v)),
  fc.string()
)
const headerText = fc.oneof(fc.constant(""), fc.string({ maxLength: 300 }), fc.stringMatching(/^[\x21-\x7e]{1,20}$/))
const visible = (s: string) => s.replace(/[^\x20-\x7e]/g, "")

const request = fc.record({
  pin: fc.constantFrom("0.19.0", "0.21.0"),
  // the events route is left out: an unknown id costs upstream's 1 s wait each (tested elsewhere)
  route: fc.constantFrom("create", "get", "stop", "approval"),
  body: runBody,
  auth: fc.constantFrom("right", "right", "right", "none", "wrong"),
  idempotencyKey: fc.option(headerText.map(visible), { nil: undefined }),
  sessionKey: fc.option(headerText.map(visible), { nil: undefined }),
  runId: fc.oneof(fc.constant("run_unknown"), fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/))
})

const EXPECTED = new Set([200, 202, 400, 401, 403, 404, 409, 429, 500])

/**
 * Where upstream's handler lets an exception escape: a JSON body that is not an object, an input
 * list ending in a non-object, or (once the body is valid) a previous_response_id SQLite cannot bind
 * — a list or a dict (JSON.parse here cannot tell ints past 64 bits, which never come out of fc.jsonValue).
 */
const upstreamCrashes = (route: string, body: string): boolean => {
  if (route !== "create" && route !== "approval") return false
  let v: unknown
  try {
    v = JSON.parse(body)
  } catch {
    return false
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return true
  if (route !== "create") return false
  const input = (v as Record<string, unknown>)["input"]
  if (Array.isArray(input) && input.length > 0) {
    const last: unknown = input[input.length - 1]
    if (typeof last !== "object" || last === null || Array.isArray(last)) return true
  }
  const previous = (v as Record<string, unknown>)["previous_response_id"]
  return typeof previous === "object" && previous !== null && Object.keys(previous).length > 0
}

const emulators: Record<string, RunningEmulator> = {}
beforeAll(async () => {
  for (const pin of ["0.19.0", "0.21.0"] as const) emulators[pin] = await startEmulator({ apiKey: API_KEY, hermesVersion: pin, maxConcurrentRuns: 0 })
})
afterAll(async () => {
  for (const e of Object.values(emulators)) await e.close()
})

const runCount = async (emu: RunningEmulator) =>
  Number(((await (await emu.fetch("http://e/__admin/state", { headers: ADMIN_HEADERS })).json()) as Record<string, unknown>)["runs"])

describe("runs routes under arbitrary input", () => {
  it("answer with upstream's envelopes, crash only where upstream crashes, and reject without side effects", async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const emu = emulators[r.pin] as RunningEmulator
        const headers: Record<string, string> = {}
        if (r.auth !== "none") headers["authorization"] = `Bearer ${r.auth === "right" ? API_KEY : "nope"}`
        if (r.idempotencyKey !== undefined) headers["idempotency-key"] = r.idempotencyKey
        if (r.sessionKey !== undefined) headers["x-hermes-session-key"] = r.sessionKey
        const before = await runCount(emu)
        const path = {
          create: "/v1/runs",
          get: `/v1/runs/${r.runId}`,
          stop: `/v1/runs/${r.runId}/stop`,
          approval: `/v1/runs/${r.runId}/approval`
        }[r.route]
        const method = r.route === "get" ? "GET" : "POST"
        const res = await emu.fetch(`http://e${path}`, { method, headers, ...(method === "POST" ? { body: r.body } : {}) })
        expect(EXPECTED.has(res.status), `status ${res.status}`).toBe(true)
        const text = await res.text()
        if (res.status === 500) {
          expect(r.auth).toBe("right")
          expect(upstreamCrashes(r.route, r.body)).toBe(true)
          expect(text).toBe("500 Internal Server Error\n\nServer got itself in trouble")
        } else if (res.status >= 400) {
          const body = JSON.parse(text) as { error: { message: unknown; type: unknown } }
          expect(typeof body.error.message).toBe("string")
          expect(typeof body.error.type).toBe("string")
        }
        if (res.status !== 202) expect(await runCount(emu)).toBe(before)
        if (r.auth !== "right") expect(res.status).toBe(401)
      }),
      propertyParams(11_401, { numRuns: 400 })
    )
  }, 60_000)
})
