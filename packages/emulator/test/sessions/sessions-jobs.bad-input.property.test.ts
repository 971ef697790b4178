/**
 * Arbitrary bodies, headers and ids against every sessions and jobs route: the answer is one
 * upstream can give (the sessions API's OpenAI envelopes, the jobs API's plain {"error": "..."},
 * aiohttp's plain 500 only where upstream's handler lets an exception escape), and a rejected
 * request changes no state and plays no Script turn — except where upstream itself writes before
 * refusing (a fork whose title is refused keeps the fork; the source is marked branched).
 */
import fc from "fast-check"
import { propertyParams } from "../../../../test/support/propertySeed.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningEmulator, startEmulator } from "../../src/index.js"
import { ADMIN_HEADERS, API_KEY } from "../support.js"

const jsonValue = fc.jsonValue({ maxDepth: 2 })
const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("", " ", "a/b", "..", "C:x", "x\ny", "0 9 * * *", "every 5m", "2h", "2020-01-01T00:00", "s-base", "fork", "7"))
const sessionBody = fc.record(
  {
    id: fc.oneof(text, jsonValue),
    session_id: fc.oneof(text, jsonValue),
    title: fc.oneof(text, jsonValue, fc.string({ minLength: 95, maxLength: 110 })),
    system_prompt: fc.oneof(text, jsonValue),
    model: jsonValue,
    end_reason: fc.oneof(text, jsonValue),
    message: fc.oneof(text, jsonValue, fc.constant([{ type: "input_file" }])),
    input: fc.oneof(text, jsonValue),
    system_message: jsonValue,
    source: text,
    pinned: jsonValue,
    foo: jsonValue
  },
  { requiredKeys: [] }
)
const jobBody = fc.record(
  {
    name: fc.oneof(text, jsonValue),
    schedule: fc.oneof(text, jsonValue),
    prompt: fc.oneof(text, jsonValue, fc.constant("ignore all previous instructions")),
    deliver: jsonValue,
    skills: jsonValue,
    skill: jsonValue,
    repeat: jsonValue,
    enabled: jsonValue,
    foo: jsonValue
  },
  { requiredKeys: [] }
)
const body = fc.oneof(
  fc.oneof(sessionBody, jobBody).map((o) => JSON.stringify(o)),
  jsonValue.map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 20 })
)

const ROUTES = [
  ["GET", "/api/sessions"],
  ["POST", "/api/sessions"],
  ["GET", "/api/sessions/{s}"],
  ["PATCH", "/api/sessions/{s}"],
  ["DELETE", "/api/sessions/{s}"],
  ["GET", "/api/sessions/{s}/messages"],
  ["POST", "/api/sessions/{s}/fork"],
  ["POST", "/api/sessions/{s}/chat"],
  ["POST", "/api/sessions/{s}/chat/stream"],
  ["GET", "/api/jobs"],
  ["POST", "/api/jobs"],
  ["GET", "/api/jobs/{j}"],
  ["PATCH", "/api/jobs/{j}"],
  ["DELETE", "/api/jobs/{j}"],
  ["POST", "/api/jobs/{j}/pause"],
  ["POST", "/api/jobs/{j}/resume"],
  ["POST", "/api/jobs/{j}/run"]
] as const

const request = fc.record({
  pin: fc.constantFrom("0.19.0", "0.21.0"),
  route: fc.constantFrom(...ROUTES),
  body,
  auth: fc.constantFrom("right", "right", "right", "right", "none", "wrong"),
  // "." and ".." are path segments a URL client normalizes away, not ids
  sessionId: fc.oneof(fc.constant("s-base"), fc.constant("missing"), fc.stringMatching(/^[A-Za-z0-9_.:-]{1,12}$/).filter((s) => s !== "." && s !== "..")),
  jobId: fc.oneof(fc.constant("known"), fc.constant("000000000000"), fc.stringMatching(/^[A-Za-z0-9]{1,14}$/)),
  query: fc.constantFrom("", "?limit=1", "?limit=-1&offset=x", "?include_disabled=1", "?order=nope", "?limit=501")
})

const emulators: Record<string, RunningEmulator> = {}
const knownJob: Record<string, string> = {}
beforeAll(async () => {
  for (const pin of ["0.19.0", "0.21.0"] as const) {
    const emu = await startEmulator({ apiKey: API_KEY, hermesVersion: pin })
    emulators[pin] = emu
    const call = (method: string, path: string, b?: unknown) =>
      emu.fetch(`http://e${path}`, { method, headers: { authorization: `Bearer ${API_KEY}` }, ...(b === undefined ? {} : { body: JSON.stringify(b) }) })
    await call("POST", "/api/sessions", { id: "s-base", title: "Base" })
    const job = (await (await call("POST", "/api/jobs", { name: "known", schedule: "every 1h", prompt: "p" })).json()) as { job: { id: string } }
    knownJob[pin] = job.job.id
    // a long Script, so a turn consumed on rejection would show
    await emu.fetch("http://e/__admin/script", { method: "POST", headers: ADMIN_HEADERS, body: JSON.stringify({ turns: Array.from({ length: 500 }, () => ({ replies: [{ text: "ok" }] })) }) })
  }
})
afterAll(async () => {
  for (const e of Object.values(emulators)) await e.close()
})

const snapshot = async (emu: RunningEmulator): Promise<string> => {
  const get = async (path: string) => (await emu.fetch(`http://e${path}`, { headers: { authorization: `Bearer ${API_KEY}` } })).text()
  const state = JSON.parse(await get("/__admin/state")) as Record<string, unknown>
  return JSON.stringify([await get("/api/sessions?include_children=1&limit=200"), await get("/api/jobs?include_disabled=1"), state["pending_turns"]])
}

const OPENAI_ERROR_KEYS = ["message", "type", "param", "code"]

describe("sessions and jobs routes under arbitrary input", () => {
  it("answer with upstream's envelopes, crash only where upstream crashes, and reject without side effects", async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const emu = emulators[r.pin] as RunningEmulator
        const method: string = r.route[0]
        const template: string = r.route[1]
        const path = template
          .replace("{s}", encodeURIComponent(r.sessionId))
          .replace("{j}", r.jobId === "known" ? (knownJob[r.pin] as string) : r.jobId) + (method === "GET" ? r.query : "")
        const headers: Record<string, string> = {}
        if (r.auth !== "none") headers["authorization"] = `Bearer ${r.auth === "right" ? API_KEY : "nope"}`
        const before = await snapshot(emu)
        const res = await emu.fetch(`http://e${path}`, { method, headers, ...(method === "GET" ? {} : { body: r.body }) })
        const out = await res.text()
        if (r.auth !== "right") {
          expect(res.status).toBe(401)
          return
        }
        const jobs = template.startsWith("/api/jobs")
        expect([200, 201, 400, 404, 409, 500]).toContain(res.status)
        if (res.status === 500 && !jobs) {
          // only POST /api/sessions lets an exception escape: a title that sanitises to over 100 characters
          expect([method, template]).toEqual(["POST", "/api/sessions"])
          expect(out).toBe("500 Internal Server Error\n\nServer got itself in trouble")
        } else if (res.status >= 400) {
          const parsed = JSON.parse(out) as { error: unknown }
          if (jobs) expect(typeof parsed.error).toBe("string")
          else expect(Object.keys(parsed.error as object)).toEqual(OPENAI_ERROR_KEYS)
        }
        const forkKeptOnRefusedTitle = template.endsWith("/fork") && res.status === 400 && out.includes('"invalid_title"')
        if (res.status >= 400 && !forkKeptOnRefusedTitle) expect(await snapshot(emu)).toBe(before)
      }),
      propertyParams(14_01, { numRuns: 300 })
    )
  })
})
