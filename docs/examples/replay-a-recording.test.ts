import { startReplayer } from "@hermetic/emulator"
import { expect, it } from "vitest"

// Recorded once against a real Hermes 0.19.0 gateway with
//   hermes-emulator record --upstream http://127.0.0.1:8642 --out evidence/cassette-sources/record-replay/0.19.0
// and committed; CI replays it with no gateway and no model.
const RECORDING = new URL("../../evidence/cassette-sources/record-replay/0.19.0", import.meta.url).pathname

it("answers the recorded requests, and names an unrecorded one", async () => {
  const replay = await startReplayer({ dir: RECORDING, speed: 0 })
  try {
    const ask = (content: string) =>
      fetch(`${replay.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: "Bearer any-key", "content-type": "application/json" },
        body: JSON.stringify({ model: "hermes-agent", messages: [{ role: "user", content }] })
      })
    const recorded = await ask("What is 2 + 2?")
    expect(recorded.status).toBe(200)
    const body = (await recorded.json()) as { choices: Array<{ message: { content: string } }> }
    expect(body.choices[0]?.message.content).toBe("2 + 2 = 4")

    const unrecorded = await ask("What is 3 + 3?")
    expect(unrecorded.status).toBe(501)
    const { error } = (await unrecorded.json()) as { error: { type: string; message: string } }
    expect(error.type).toBe("hermetic_replay_miss")
    expect(error.message).toContain('differs at body.messages[0].content: recorded "What is 2 + 2?", got "What is 3 + 3?"')
  } finally {
    await replay.close()
  }
})
