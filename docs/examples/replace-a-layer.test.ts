import { expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Agent, DEFAULT_NAMESPACE, Emulator, Faults, FaultsLive, IdsSeeded, layer, storageLayer } from "@hermetic/emulator"

const API_KEY = "test-key-0123456789"
// your own Faults, Ids, Agent or Storage under the emulator's layer win over its defaults
const HermesTest = layer({ apiKey: API_KEY }).pipe(
  Layer.provide(Layer.mergeAll(FaultsLive, IdsSeeded(42), storageLayer(":memory:")))
)

it.scoped("a fault and a Script armed as Effects", () =>
  Effect.gen(function*() {
    const emu = yield* Emulator
    const chat = () =>
      Effect.promise(() =>
        emu.fetch("http://hermes/v1/chat/completions", {
          method: "POST",
          headers: { authorization: `Bearer ${API_KEY}` },
          body: JSON.stringify({ model: "hermes-agent", messages: [{ role: "user", content: "hi" }] })
        })
      )
    yield* Faults.add(DEFAULT_NAMESPACE, { route: "chat.completions", status: 429 })
    yield* Agent.script(DEFAULT_NAMESPACE, { turns: [{ replies: [{ text: "Hello" }] }] })
    expect((yield* chat()).status).toBe(429)
    const answered = yield* chat()
    const answer = (yield* Effect.promise(() => answered.json())) as { id: string; choices: Array<{ message: { content: string } }> }
    expect(answer.choices[0]?.message.content).toBe("Hello")
    expect(answer.id).toMatch(/^chatcmpl-[0-9a-f]{29}$/)
  }).pipe(Effect.provide(HermesTest)))
