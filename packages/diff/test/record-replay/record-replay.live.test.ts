/**
 * Record and replay against the real Hermes 0.19.0 gateway (oracle runner, process launcher):
 * the example app runs through `hermes-emulator record` in front of the gateway, then against
 * `hermes-emulator replay` of what was recorded, and must see the same answers byte for byte.
 * HERMETIC_LIVE=1 only. With HERMETIC_WRITE_EVIDENCE=1 it also refreshes the committed example
 * under evidence/cassette-sources/record-replay/0.19.0/ (replayed offline by recorded-example.test.ts).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadRecording, startRecorder, startReplayer } from "@hermetic/emulator"
import { type GatewayHandle, startGateway } from "@hermetic/oracle-runner"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { EXAMPLE_SCRIPT, runExampleApp } from "./exampleApp.js"

const live = process.env["HERMETIC_LIVE"] === "1"
if (!live) console.log("[skip] record/replay against the real gateway: set HERMETIC_LIVE=1 to start the real Hermes 0.19.0 gateway")

export const EVIDENCE_DIR = new URL("../../../../evidence/cassette-sources/record-replay/0.19.0", import.meta.url).pathname

describe.skipIf(!live)("record and replay the real Hermes 0.19.0 gateway", () => {
  let gw: GatewayHandle
  // made when the tests run (a skipped describe still runs its body, but never its afterAll)
  let dir = ""
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "hermetic-live-record-"))
    gw = await startGateway({ pin: "0.19.0", launcher: "process", progress: (l) => console.log(l) })
  }, 600_000)
  afterAll(async () => {
    await gw?.stop()
    if (dir !== "") rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  it("records the app's traffic (streams with timing, key redacted) and replays the same answers", async () => {
    gw.script(EXAMPLE_SCRIPT)
    const recorder = await startRecorder({ upstream: gw.baseUrl, out: dir })
    const t0 = performance.now()
    const recorded = await runExampleApp(recorder.url, gw.apiKey)
    const recordMs = performance.now() - t0
    await recorder.close()
    expect(recorder.manifest.hermesVersion).toBe("0.19.0")
    expect(JSON.parse(recorded.chat.body).choices[0].message.content).toBe("2 + 2 = 4")
    expect(recorded.chatStream.contentType).toContain("text/event-stream")
    expect(JSON.parse(recorded.runFinal.body)).toMatchObject({ status: "completed", output: "The run is done" })
    expect(recorded.unauthorized.status).toBe(401)

    const files = readdirSync(join(dir, "exchanges"))
    const text = files.map((f) => readFileSync(join(dir, "exchanges", f), "utf8")).join("\n")
    expect(text).not.toContain(gw.apiKey)
    const { exchanges } = loadRecording(dir)
    const stream = exchanges.find((e) => e.operation === "chat.completions" && e.response.stream !== undefined)
    expect(stream?.response.stream?.length).toBeGreaterThan(1)

    const replay = await startReplayer({ dir, speed: 0 })
    try {
      const t1 = performance.now()
      const replayed = await runExampleApp(replay.url, "any-key-the-app-has-in-ci")
      const replayMs = performance.now() - t1
      expect(replayed).toEqual(recorded)
      expect(replay.misses()).toEqual([])
      const miss = await fetch(`${replay.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: "Bearer k" },
        body: JSON.stringify({ model: "hermes-agent", messages: [{ role: "user", content: "What is 3 + 3?" }] })
      })
      expect(miss.status).toBe(501)
      expect(((await miss.json()) as { error: { message: string } }).error.message).toContain('the first differs at body.messages[0].content: recorded "What is 2 + 2?", got "What is 3 + 3?"')
      console.log(`[record-replay] ${exchanges.length} exchanges; app against the real gateway ${Math.round(recordMs)} ms, against the replay ${Math.round(replayMs)} ms`)
    } finally {
      await replay.close()
    }
    if (process.env["HERMETIC_WRITE_EVIDENCE"] === "1") {
      rmSync(EVIDENCE_DIR, { recursive: true, force: true })
      cpSync(dir, EVIDENCE_DIR, { recursive: true })
    }
  })
})
