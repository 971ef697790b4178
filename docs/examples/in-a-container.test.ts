import { HermesEmulatorContainer, type StartedHermesEmulatorContainer } from "@hermetic/testcontainers"
import OpenAI from "openai"
import { getContainerRuntimeClient, ImageName } from "testcontainers"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const API_KEY = "test-key-0123456789"
const IMAGE = process.env["HERMETIC_EMULATOR_IMAGE"] ?? "hermetic/emulator:latest"
// no engine or no image here: skip, and say why (the container smoke requires them)
const engine = await getContainerRuntimeClient().catch((e: Error) => `no container engine (${e.message})`)
const missing = typeof engine === "string" ? engine : (await engine.image.exists(ImageName.fromString(IMAGE))) ? undefined : `no image ${IMAGE}`
if (missing !== undefined) console.log(`[skip] the container example: ${missing}`)

describe.skipIf(missing !== undefined)("the emulator in a container", () => {
  let emu: StartedHermesEmulatorContainer
  beforeAll(async () => {
    // withHostNetwork(): this engine has no bridge network; elsewhere leave it out (a published port)
    emu = await new HermesEmulatorContainer(IMAGE).withApiKey(API_KEY).withHermesVersion("0.19.0").withHostNetwork().start()
  }, 60_000)
  afterAll(() => emu?.stop())

  it("answers what was scripted, and journals what the app sent", async () => {
    const control = emu.control({ namespace: "docs-example" })
    await control.script({ turns: [{ replies: [{ text: "Short version." }] }] })
    const client = new OpenAI({ baseURL: `${emu.getBaseUrl()}/v1`, apiKey: API_KEY, defaultHeaders: control.headers })

    const res = await client.chat.completions.create({ model: "hermes-agent", messages: [{ role: "user", content: "Summarize: a long text" }] })
    expect(res.choices[0]?.message.content).toBe("Short version.")
    await control.journal.expectRequest({ operation: "chat.completions", status: 200 })
  })
})
