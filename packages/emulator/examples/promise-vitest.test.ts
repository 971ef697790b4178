// The emulator in plain vitest (jest alike: pass its globals), with the official OpenAI SDK.
import { emulatorFixture } from "@hermetic/emulator"
import OpenAI from "openai"
import { afterAll, afterEach, beforeAll, expect, it } from "vitest"

const emu = emulatorFixture({ beforeAll, afterAll, afterEach }, { hermesVersion: "0.19.0" })

it("answers with the scripted reply", async () => {
  await emu.script({ turns: [{ replies: [{ text: "Bonjour !" }] }] })
  const client = new OpenAI({ baseURL: `${emu.url}/v1`, apiKey: emu.apiKey })
  const completion = await client.chat.completions.create({ model: "hermes-agent", messages: [{ role: "user", content: "Say hello in French" }] })
  expect(completion.choices[0]?.message.content).toBe("Bonjour !")
})

it("streams it too", async () => {
  await emu.script({ turns: [{ replies: [{ text: "Hello there", chunks: ["Hel", "lo there"] }] }] })
  const client = new OpenAI({ baseURL: `${emu.url}/v1`, apiKey: emu.apiKey })
  const stream = await client.chat.completions.create({ model: "hermes-agent", messages: [{ role: "user", content: "hi" }], stream: true })
  let text = ""
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ""
  expect(text).toBe("Hello there")
})
