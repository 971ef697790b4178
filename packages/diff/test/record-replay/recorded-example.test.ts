/**
 * The committed recording of the example app against the real Hermes 0.19.0 gateway
 * (evidence/cassette-sources/record-replay/0.19.0, made by record-replay.live.test.ts) replays offline: the app sees
 * exactly the recorded answers, at the recorded pace of its streams when asked.
 */
import { existsSync } from "node:fs"
import { loadRecording, startReplayer } from "@hermetic/emulator"
import { describe, expect, it } from "vitest"
import { runExampleApp } from "./exampleApp.js"

const DIR = new URL("../../../../evidence/cassette-sources/record-replay/0.19.0", import.meta.url).pathname

describe("the committed 0.19.0 recording", () => {
  it("replays the example app without a gateway", async () => {
    expect(existsSync(DIR)).toBe(true)
    const { manifest, exchanges } = loadRecording(DIR)
    expect(manifest.hermesVersion).toBe("0.19.0")
    const replay = await startReplayer({ dir: DIR, speed: 0 })
    try {
      const seen = await runExampleApp(replay.url, "a-key-only-ci-knows")
      expect(replay.misses()).toEqual([])
      const answerOf = (op: string) => exchanges.find((e) => e.operation === op)?.response
      expect(seen.chat.body).toBe(answerOf("chat.completions")?.body)
      expect(JSON.parse(seen.runFinal.body)).toMatchObject({ status: "completed", output: "The run is done" })
      expect(seen.chatStream.body).toContain("Once ")
      expect(seen.unauthorized.status).toBe(401)
    } finally {
      await replay.close()
    }
  })
})
