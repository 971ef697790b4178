/**
 * Property: whatever a request looks like, the journal keeps none of its credentials — neither the
 * configured key (anywhere, also across the cut of a long body), nor values of key-like fields,
 * nor bearer tokens, nor secret headers.
 */
import { Effect } from "effect"
import fc from "fast-check"
import { propertyParams } from "../../../../test/support/propertySeed.js"
import { describe, expect, it } from "vitest"
import { makeJournal } from "../../src/services/Journal.js"

const API_KEY = "cfg-key-0123456789abcdef"
const SECRET_FIELDS = ["api_key", "apiKey", "password", "client_secret", "access_token", "session_key", "token", "x-api-key"]
const SECRET_HEADERS = ["authorization", "x-api-key", "cookie", "x-hermes-session-key", "x-hermetic-admin-key"]

/** A secret value the generator plants; distinct enough never to occur by chance. */
const secret = fc.stringMatching(/^[A-Za-z0-9]{12,24}$/).map((s) => `SECRET${s}`)

/** Puts `value` under a key-like field somewhere inside a JSON value. */
const plant = (json: unknown, field: string, value: string, path: ReadonlyArray<number>): unknown => {
  if (path.length === 0 || json === null || typeof json !== "object") return { [field]: value, wrapped: json }
  if (Array.isArray(json)) {
    if (json.length === 0) return [{ [field]: value }]
    const i = (path[0] as number) % json.length
    return json.map((x, j) => (j === i ? plant(x, field, value, path.slice(1)) : x))
  }
  const keys = Object.keys(json)
  if (keys.length === 0) return { [field]: value }
  const k = keys[(path[0] as number) % keys.length] as string
  return { ...json, [k]: plant((json as Record<string, unknown>)[k], field, value, path.slice(1)) }
}

describe("journal redaction (property)", () => {
  it("never stores a planted credential, whatever the body, field, header and size bound", () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 3 }),
        fc.constantFrom(...SECRET_FIELDS),
        secret,
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.constantFrom(...SECRET_HEADERS),
        secret,
        fc.string({ maxLength: 40 }),
        fc.integer({ min: 8, max: 400 }),
        (json, field, fieldSecret, path, header, headerSecret, noise, maxBodyBytes) => {
          const journal = makeJournal({ bodies: true, maxBodyBytes, secrets: [API_KEY] })
          const body = { note: `${noise} Bearer ${fieldSecret}x ${noise} ${API_KEY} ${noise}`, data: plant(json, field, fieldSecret, path) }
          const { id, observer } = journal.open({
            now: () => 0,
            namespace: "p",
            method: "POST",
            path: "/v1/chat/completions",
            headers: { [header]: headerSecret, "content-type": "application/json" },
            admin: false
          })
          journal.attachBody(id, new TextEncoder().encode(JSON.stringify(body)))
          observer?.([{ role: "user", content: body.note }])
          journal.close(id, { operation: "chat.completions", status: 200, durationMs: 1, fault: null, responseSession: null })
          const text = JSON.stringify(Effect.runSync(journal.entries("p")))
          for (const s of [fieldSecret, headerSecret, API_KEY]) {
            // no whole secret, and no 12-character prefix of it left at a cut
            expect(text).not.toContain(s.slice(0, 12))
          }
        }
      ),
      propertyParams(34_01, { numRuns: 300 })
    )
  })
})
