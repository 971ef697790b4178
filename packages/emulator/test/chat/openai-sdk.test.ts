/**
 * The official `openai` npm SDK, unchanged, against the emulator's chat completions and models:
 * create with and without streaming, the SDK's stream parser over our SSE (tool progress frames
 * included), models.list, a model error surfacing as finish_reason "error", and a wrong key
 * refused with each pin's 401 envelope.
 */
import OpenAI from "openai"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { API_KEY, type Client, startClient } from "../support.js"

const AUTH_ERRORS = {
  "0.19.0": { message: "Invalid API key", type: "invalid_request_error", code: "invalid_api_key" },
  "0.21.0": { message: "Invalid gateway API key (API_SERVER_KEY)", type: "gateway_auth_error", code: "gateway_auth_failed" }
} as const

describe.each(["0.19.0", "0.21.0"] as const)("openai SDK chat on %s", (pin) => {
  let c: Client
  let sdk: OpenAI
  beforeAll(async () => {
    c = await startClient({ hermesVersion: pin })
    sdk = new OpenAI({ apiKey: API_KEY, baseURL: `${c.emu.url}/v1`, maxRetries: 0 })
  })
  afterAll(() => c.emu.close())

  it("chat.completions.create returns the scripted text and usage", async () => {
    await c.script({ turns: [{ replies: [{ text: "Hello there", usage: { prompt_tokens: 12, completion_tokens: 3 } }] }] })
    const done = await sdk.chat.completions.create({
      model: "hermes-agent",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "hi" }
      ]
    })
    expect(done.object).toBe("chat.completion")
    expect(done.id).toMatch(/^chatcmpl-[0-9a-f]{29}$/)
    expect(done.choices[0]?.message.content).toBe("Hello there")
    expect(done.choices[0]?.finish_reason).toBe("stop")
    expect(done.usage).toEqual({ prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 })
  })

  it("streams chunk by chunk through the SDK's parser", async () => {
    await c.script({
      turns: [{ replies: [{ toolCalls: [{ name: "todo" }] }, { text: "Hello there", chunks: ["Hel", "lo ", "there"] }] }]
    })
    const stream = await sdk.chat.completions.create({
      model: "hermes-agent",
      stream: true,
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }]
    })
    const deltas: Array<string> = []
    let finish: string | null | undefined
    for await (const chunk of stream) {
      const choice = chunk.choices[0]
      if (choice?.delta.content) deltas.push(choice.delta.content)
      if (choice?.finish_reason) finish = choice.finish_reason
    }
    expect(deltas).toEqual(["Hel", "lo ", "there"])
    expect(finish).toBe("stop")
  })

  it("a model error reaches the SDK as finish_reason error with Hermes' text", async () => {
    await c.script({ turns: [{ replies: [{ error: { status: 400, message: "synthetic failure" } }] }] })
    const done = await sdk.chat.completions.create({ model: "hermes-agent", messages: [{ role: "user", content: "fail" }] })
    expect(done.choices[0]?.finish_reason).toBe("error")
    expect(done.choices[0]?.message.content).toBe("HTTP 400: synthetic failure")
  })

  it("models.list lists the advertised model", async () => {
    const page = await sdk.models.list()
    expect(page.data.map((m) => m.id)).toEqual(["hermes-agent"])
    expect(page.data[0]?.owned_by).toBe("hermes")
  })

  it("a wrong key is refused with the pin's 401 envelope", async () => {
    const wrong = new OpenAI({ apiKey: "wrong-key-0123456789abcdef", baseURL: `${c.emu.url}/v1`, maxRetries: 0 })
    const chatError = await wrong.chat.completions
      .create({ model: "hermes-agent", messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e)
    expect(chatError).toBeInstanceOf(OpenAI.AuthenticationError)
    expect((chatError as InstanceType<typeof OpenAI.AuthenticationError>).error).toEqual(AUTH_ERRORS[pin])
    await expect(wrong.models.list()).rejects.toMatchObject({ status: 401 })
  })
})
