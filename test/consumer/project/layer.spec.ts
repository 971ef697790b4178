// (b) An Effect program that uses the emulator's Layer, tested with @effect/vitest.
import { expect, it } from "@effect/vitest"
import { Emulator, layer } from "@hermetic/emulator"
import { Effect } from "effect"

const apiKey = "consumer-key-0123456789abcdef"
const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" }

it.layer(layer({ hermesVersion: "0.19.0", apiKey }))("the emulator as a Layer", (it) => {
  it.effect("scripts a reply and reads it back", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator
      const post = (path: string, body: unknown) =>
        Effect.promise(() => emu.fetch(`http://emulator${path}`, { method: "POST", headers, body: JSON.stringify(body) }))
      const scripted = yield* post("/__admin/script", { turns: [{ replies: [{ text: "Hello from a Layer" }] }] })
      expect(scripted.status).toBe(200)
      const chat = yield* post("/v1/chat/completions", { model: "hermes-agent", messages: [{ role: "user", content: "hi" }] })
      const body = (yield* Effect.promise(() => chat.json())) as { choices: Array<{ message: { content: string } }> }
      expect(chat.status).toBe(200)
      expect(body.choices[0]?.message.content).toBe("Hello from a Layer")
    }))
})
