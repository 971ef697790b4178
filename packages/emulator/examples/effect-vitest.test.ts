// The emulator as a Layer in @effect/vitest: one server for the block, your code talks HTTP to it.
import { expect, it } from "@effect/vitest"
import { EmulatorServer } from "@hermetic/emulator"
import { Effect } from "effect"

// Your application code: asks the agent to greet someone.
const greet = (baseUrl: string, apiKey: string, name: string) =>
  Effect.promise(async () => {
    const res = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "hermes-agent", messages: [{ role: "user", content: `Greet ${name}` }] })
    })
    const body = (await res.json()) as { choices: Array<{ message: { content: string } }> }
    return body.choices[0]?.message.content
  })

it.layer(EmulatorServer.layer({ hermesVersion: "0.19.0" }))("greeting", (it) => {
  it.effect("returns what the model said", () =>
    Effect.gen(function*() {
      const emu = yield* EmulatorServer
      yield* emu.script({ turns: [{ replies: [{ text: "Hello, Ada!" }] }] })
      expect(yield* greet(emu.url, emu.apiKey, "Ada")).toBe("Hello, Ada!")
    }))
})
