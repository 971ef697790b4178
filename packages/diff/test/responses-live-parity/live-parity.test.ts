/**
 * The emulator (0.19.0) replays every exchange recorded from the real 0.19.0 gateway in
 * evidence/cassette-sources/live/responses-0.19.0.md — same Scripts, same requests, in the same order — and must
 * answer alike: status, headers (beyond transport ones), and body, with server-made ids compared
 * as an identity graph (the n-th distinct id on one side must be the n-th on the other) and
 * `created_at` as "some integer". Streams are compared event by event after the differ's own
 * RESPONSES_DELTA_JOIN rule (adjacent text deltas of one content part joined, sequence_number
 * renumbered): it lives here, in the differ's package, so the rule is used, never copied.
 */
import { startEmulator, type RunningEmulator } from "@hermetic/emulator"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parseSse } from "../../src/exchange/SseFrames.js"
import type { JsonValue } from "../../src/json/JsonValue.js"
import { joinResponsesDeltas } from "../../src/normalize/responsesDeltaJoin.js"
import { type RecordedStep, recordedSteps } from "./recordedProbe.js"

const API_KEY = "test-key-0123456789abcdef"
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

/** A Responses stream's events after the differ's delta-join rule. */
const normalizeResponsesStream = (body: string): Array<JsonValue | undefined> =>
  joinResponsesDeltas(parseSse(body).map((frame) => ({ data: JSON.parse(frame.data ?? "null") as JsonValue }))).frames.map((f) => f.data)

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
  let emu: RunningEmulator
  beforeAll(async () => {
    emu = await startEmulator({ apiKey: API_KEY, hermesVersion: "0.19.0" })
  })
  afterAll(async () => {
    await emu.close()
  })
  const script = async (body: unknown) => {
    const res = await fetch(`${emu.url}/__admin/script`, {
      method: "POST",
      headers: { "x-hermetic-namespace": "default", "content-type": "application/json", "x-hermetic-admin-key": API_KEY },
      body: JSON.stringify(body)
    })
    if (res.status !== 200) throw new Error(`script rejected: ${await res.text()}`)
  }

  it("has the recorded exchanges to replay", () => {
    expect(steps.length).toBeGreaterThan(40)
  })

  // real id → the emulator's id for the same response, so later requests address the same thing
  const emulatorIdOf = new Map<string, string>()
  const realTokens = new Tokens()
  const emuTokens = new Tokens()
  const translate = (s: string) => s.replace(/resp_[0-9a-f]{28}/g, (id) => emulatorIdOf.get(id) ?? id)

  it.each(steps.map((s) => [s.title, s] as const))("%s", async (_title, step: RecordedStep) => {
    if (step.script !== undefined) await script(step.script)
    const headers: Record<string, string> = { "x-hermetic-namespace": "default" }
    for (const [k, v] of step.requestHeaders) headers[k] = v.replace("<API_SERVER_KEY>", API_KEY)
    const res = await fetch(`${emu.url}${translate(step.path)}`, {
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
