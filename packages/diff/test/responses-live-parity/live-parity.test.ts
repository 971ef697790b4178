/**
 * The emulator (0.19.0) replays every exchange recorded from the real 0.19.0 gateway in
 * evidence/live/responses-0.19.0.md — same Scripts, same requests, in the same order — and must
 * answer alike: status, headers (beyond transport ones), and body, with server-made ids compared
 * as an identity graph (the n-th distinct id on one side must be the n-th on the other) and
 * `created_at` as "some integer". Streams are compared event by event after the documented
 * normalization (adjacent text deltas of one item joined, sequence_number renumbered).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { API_KEY, type Client, startClient } from "../support.js"
import { type RecordedStep, recordedSteps } from "./recordedProbe.js"

const ID = /\b(resp_[0-9a-f]{28}|msg_[0-9a-f]{24}|fco?_[0-9a-f]{24}|[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})\b/g
const TRANSPORT = new Set(["date", "server", "content-length", "connection", "keep-alive", "transfer-encoding"])

/** Server-made ids → <id:n> by first appearance, per side, across the whole replay. */
class Tokens {
  private readonly seen = new Map<string, number>()
  apply(text: string): string {
    return text.replace(ID, (id) => {
      let n = this.seen.get(id)
      if (n === undefined) {
        n = this.seen.size + 1
        this.seen.set(id, n)
      }
      return `<id:${n}>`
    })
  }
}

/** The differ's rule for Responses streams: join adjacent text deltas, renumber events. */
export const normalizeResponsesStream = (body: string): Array<string> => {
  const events = body.split("\n\n").filter((f) => f !== "").map((frame) => {
    const data = frame.slice(frame.indexOf("data: ") + 6)
    return JSON.parse(data) as Record<string, unknown>
  })
  const merged: Array<Record<string, unknown>> = []
  for (const e of events) {
    const prev = merged[merged.length - 1]
    if (e["type"] === "response.output_text.delta" && prev?.["type"] === "response.output_text.delta" && prev["item_id"] === e["item_id"]) {
      prev["delta"] = `${String(prev["delta"])}${String(e["delta"])}`
      continue
    }
    merged.push({ ...e })
  }
  return merged.map((e, i) => JSON.stringify({ ...e, sequence_number: i }))
}

const normalizeBody = (tokens: Tokens, body: string, sse: boolean): unknown => {
  const timeless = tokens.apply(body).replace(/"created_at": \d+/g, '"created_at": "<int>"')
  return sse ? normalizeResponsesStream(timeless) : timeless
}

const normalizeHeaders = (tokens: Tokens, headers: ReadonlyArray<readonly [string, string]>): Array<string> =>
  headers
    .filter(([k]) => !TRANSPORT.has(k.toLowerCase()))
    .map(([k, v]) => `${k.toLowerCase()}: ${tokens.apply(v)}`)
    .sort()

const steps = recordedSteps("responses-0.19.0.md")

describe("replaying the live 0.19.0 Responses evidence", () => {
  let c: Client
  beforeAll(async () => {
    c = await startClient({ hermesVersion: "0.19.0" })
  })
  afterAll(async () => {
    await c.emu.close()
  })

  it("has the recorded exchanges to replay", () => {
    expect(steps.length).toBeGreaterThan(40)
  })

  // real id → the emulator's id for the same response, so later requests address the same thing
  const emulatorIdOf = new Map<string, string>()
  const realTokens = new Tokens()
  const emuTokens = new Tokens()
  const translate = (s: string) => s.replace(/resp_[0-9a-f]{28}/g, (id) => emulatorIdOf.get(id) ?? id)

  it.each(steps.map((s) => [s.title, s] as const))("%s", async (_title, step: RecordedStep) => {
    if (step.script !== undefined) await c.admin("/script", step.script)
    const headers: Record<string, string> = { "x-hermetic-namespace": "default" }
    for (const [k, v] of step.requestHeaders) headers[k] = v.replace("<API_SERVER_KEY>", API_KEY)
    const res = await fetch(`${c.emu.url}${translate(step.path)}`, {
      method: step.method,
      headers,
      ...(step.requestBody === undefined ? {} : { body: translate(step.requestBody) })
    })
    const body = await res.text()
    const realIds = step.body.match(/resp_[0-9a-f]{28}/g) ?? []
    const emuIds = body.match(/resp_[0-9a-f]{28}/g) ?? []
    realIds.forEach((id, i) => {
      const mine = emuIds[i]
      if (mine !== undefined && !emulatorIdOf.has(id)) emulatorIdOf.set(id, mine)
    })
    expect(res.status).toBe(step.status)
    const sse = (res.headers.get("content-type") ?? "").startsWith("text/event-stream")
    const got: Array<readonly [string, string]> = []
    res.headers.forEach((v, k) => got.push([k, v]))
    expect(normalizeHeaders(emuTokens, got))
      .toEqual(normalizeHeaders(realTokens, step.headers))
    expect(normalizeBody(emuTokens, body, sse)).toEqual(normalizeBody(realTokens, step.body, sse))
  })
})
