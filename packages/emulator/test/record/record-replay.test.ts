/**
 * Record and replay, offline: the emulator stands in for the user's gateway here (the live test,
 * record-replay.live.test.ts, does the same against the real Hermes 0.19.0 gateway).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { startRecorder } from "../../src/record/Recorder.js"
import { startReplayer } from "../../src/record/Replayer.js"
import { loadRecording } from "../../src/record/RecordingLoader.js"
import { API_KEY, type Client, openClients } from "../support.js"

const open = openClients()
const dirs: Array<string> = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "hermetic-record-"))
  dirs.push(d)
  return d
}

/** The application under test: a few calls any client of Hermes makes, against a base URL. */
const app = async (baseUrl: string) => {
  const auth = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" }
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = auth) => {
    const res = await fetch(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    return { status: res.status, contentType: res.headers.get("content-type"), body: await res.text() }
  }
  const chat = await call("POST", "/v1/chat/completions", { model: "hermes-agent", messages: [{ role: "user", content: "hello" }] })
  const t = performance.now()
  const stream = await call("POST", "/v1/chat/completions", { model: "hermes-agent", stream: true, messages: [{ role: "user", content: "stream please" }] })
  const streamMs = performance.now() - t
  const unauthorized = await call("GET", "/v1/models", undefined, {})
  const models = await call("GET", "/v1/models")
  return { chat, stream, unauthorized, models, streamMs }
}

const script = (c: Client) =>
  c.script({
    turns: [
      { replies: [{ text: "Hi there", usage: { prompt_tokens: 3, completion_tokens: 2 } }] },
      { replies: [{ text: "one two", chunks: ["one ", "two"] }] }
    ]
  })

describe("record and replay", () => {
  it("records every exchange (streams with timing, credentials redacted) and replays the same answers", async () => {
    const upstream = await open()
    await script(upstream)
    const out = tempDir()
    const recorder = await startRecorder({ upstream: upstream.emu.url, out })
    const recorded = await app(recorder.url)
    await recorder.close()
    expect(recorded.chat.status).toBe(200)
    expect(JSON.parse(recorded.chat.body).choices[0].message.content).toBe("Hi there")
    expect(recorded.stream.body).toContain("data: [DONE]")
    expect(recorded.unauthorized.status).toBe(401)

    const files = readdirSync(join(out, "exchanges"))
    expect(files).toHaveLength(4)
    const all = files.map((f) => readFileSync(join(out, "exchanges", f), "utf8")).join("\n")
    expect(all).not.toContain(API_KEY)
    const { manifest, exchanges } = loadRecording(out)
    expect(manifest).toMatchObject({ format: "hermetic-recording", upstream: upstream.emu.url })
    expect(exchanges.map((e) => e.operation)).toEqual(["chat.completions", "chat.completions", "models.list", "models.list"])
    expect(exchanges[0]?.request.headers["authorization"]).toBe("[REDACTED]")
    expect(exchanges[1]?.response.stream?.map((c) => c.text).join("")).toBe(recorded.stream.body)

    const replay = await startReplayer({ dir: out, speed: 0 })
    try {
      const replayed = await app(replay.url)
      const { streamMs: _a, ...same } = replayed
      const { streamMs: _b, ...expected } = recorded
      expect(same).toEqual(expected)
      expect(replay.misses()).toEqual([])
    } finally {
      await replay.close()
    }
  })

  it("answers an unrecorded request with 501 naming what is missing and where it differs", async () => {
    const upstream = await open()
    await script(upstream)
    const out = tempDir()
    const recorder = await startRecorder({ upstream: upstream.emu.url, out })
    await app(recorder.url)
    await recorder.close()
    const replay = await startReplayer({ dir: out, speed: 0 })
    try {
      const headers = { authorization: `Bearer ${API_KEY}` }
      const other = await fetch(`${replay.url}/v1/chat/completions`, {
        method: "POST",
        headers,
        body: JSON.stringify({ model: "hermes-agent", messages: [{ role: "user", content: "something else" }] })
      })
      expect(other.status).toBe(501)
      expect(other.headers.get("x-hermetic-replay")).toBe("miss")
      const body = (await other.json()) as { error: { type: string; message: string } }
      expect(body.error.type).toBe("hermetic_replay_miss")
      expect(body.error.message).toBe(
        'hermetic replay: no recorded exchange for POST /v1/chat/completions (chat.completions): 2 exchange(s) were recorded for POST /v1/chat/completions, none with this request; the first differs at body.messages[0].content: recorded "hello", got "something else". Record it against your gateway with hermes-emulator record.'
      )
      const runs = await fetch(`${replay.url}/v1/runs`, { method: "POST", headers, body: "{}" })
      expect(((await runs.json()) as { error: { message: string } }).error.message).toContain(
        "the recording has no runs.create exchange at all (recorded: chat.completions, models.list)"
      )
      expect(replay.misses().map((m) => m.operation)).toEqual(["chat.completions", "runs.create"])
      // key order in the body does not matter; a repeated request gets the last recording again
      for (let i = 0; i < 2; i++) {
        const again = await fetch(`${replay.url}/v1/chat/completions`, {
          method: "POST",
          headers,
          body: JSON.stringify({ messages: [{ content: "hello", role: "user" }], model: "hermes-agent" })
        })
        expect(again.status).toBe(200)
      }
    } finally {
      await replay.close()
    }
  })

  it("keeps a stream's timing: a reply held 300 ms upstream arrives ~300 ms late in replay, at once with speed 0", async () => {
    const upstream = await open()
    // the first reply calls a tool, so the turn goes on to the held second reply
    await upstream.script({ turns: [{ replies: [{ text: "early ", toolCalls: [{ name: "lookup" }] }, { hold: "h", text: "late" }] }] })
    const out = tempDir()
    const recorder = await startRecorder({ upstream: upstream.emu.url, out })
    const headers = { authorization: `Bearer ${API_KEY}` }
    const run = (await (await fetch(`${recorder.url}/v1/runs`, { method: "POST", headers, body: JSON.stringify({ input: "wait" }) })).json()) as { run_id: string }
    const events = fetch(`${recorder.url}/v1/runs/${run.run_id}/events`, { headers }).then((r) => r.text())
    setTimeout(() => void upstream.release("h"), 300)
    const recordedEvents = await events
    await recorder.close()
    const exchange = loadRecording(out).exchanges.find((e) => e.operation === "runs.events")
    const chunks = exchange?.response.stream ?? []
    expect(chunks.length).toBeGreaterThan(1)
    const span = (chunks[chunks.length - 1]?.atMs ?? 0) - (chunks[0]?.atMs ?? 0)
    expect(span).toBeGreaterThanOrEqual(250)

    for (const [speed, atLeast, below] of [[1, 250, 5000], [0, 0, 200]] as const) {
      const replay = await startReplayer({ dir: out, speed })
      try {
        await fetch(`${replay.url}/v1/runs`, { method: "POST", headers, body: JSON.stringify({ input: "wait" }) })
        const t = performance.now()
        const text = await (await fetch(`${replay.url}/v1/runs/${run.run_id}/events`, { headers })).text()
        const ms = performance.now() - t
        expect(text).toBe(recordedEvents)
        expect(ms).toBeGreaterThanOrEqual(atLeast)
        expect(ms).toBeLessThan(below)
      } finally {
        await replay.close()
      }
    }
  })
})

describe("stream redaction", () => {
  it("keeps chunks and timing when no secret spans two chunks, and one redacted chunk when one does", async () => {
    const { redactedStream } = await import("../../src/record/Recorder.js")
    const { makeRedactor } = await import("../../src/journal/Redaction.js")
    const redact = makeRedactor(["the-secret-key"]).text
    expect(redactedStream([{ atMs: 0, text: "a the-secret-key " }, { atMs: 5, text: "b" }], redact)).toEqual([
      { atMs: 0, text: "a [REDACTED] " },
      { atMs: 5, text: "b" }
    ])
    expect(redactedStream([{ atMs: 0, text: "a the-sec" }, { atMs: 5, text: "ret-key b" }], redact)).toEqual([{ atMs: 0, text: "a [REDACTED] b" }])
  })
})
