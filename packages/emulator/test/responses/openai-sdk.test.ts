/**
 * The official `openai` npm SDK, unchanged, against the emulator's Responses API: create with and
 * without streaming, retrieve, delete, and a wrong key refused.
 */
import OpenAI from "openai"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { API_KEY, type Client, startClient } from "../support.js"

describe.each(["0.19.0", "0.21.0"] as const)("openai SDK on %s", (pin) => {
  let c: Client
  let sdk: OpenAI
  beforeAll(async () => {
    c = await startClient({ hermesVersion: pin })
    sdk = new OpenAI({ apiKey: API_KEY, baseURL: `${c.emu.url}/v1`, maxRetries: 0 })
  })
  afterAll(async () => {
    await c.emu.close()
  })

  it("responses.create returns the scripted text, retrieve and delete work", async () => {
    await c.script({ turns: [{ replies: [{ text: "Hello from the script", usage: { prompt_tokens: 7, completion_tokens: 4 } }] }] })
    const created = await sdk.responses.create({ model: "hermes-agent", input: "hi", instructions: "be brief" })
    expect(created.output_text).toBe("Hello from the script")
    expect(created.usage?.total_tokens).toBe(11)
    const fetched = await sdk.responses.retrieve(created.id)
    expect(fetched.id).toBe(created.id)
    expect(fetched.output_text).toBe("Hello from the script")
    await sdk.responses.delete(created.id)
    await expect(sdk.responses.retrieve(created.id)).rejects.toMatchObject({ status: 404 })
  })

  it("chains with previous_response_id", async () => {
    await c.script({ turns: [{ replies: [{ text: "first" }] }, { replies: [{ text: "second" }] }] })
    const first = await sdk.responses.create({ model: "hermes-agent", input: "one" })
    const second = await sdk.responses.create({ model: "hermes-agent", input: "two", previous_response_id: first.id })
    expect(second.output_text).toBe("second")
  })

  it("streams events the SDK parses, ending in response.completed", async () => {
    await c.script({ turns: [{ replies: [{ text: "streamed text", chunks: ["stream", "ed ", "text"] }] }] })
    const stream = await sdk.responses.create({ model: "hermes-agent", input: "stream it", stream: true })
    const types: Array<string> = []
    let text = ""
    let completedId = ""
    for await (const event of stream) {
      types.push(event.type)
      if (event.type === "response.output_text.delta") text += event.delta
      if (event.type === "response.completed") completedId = event.response.id
    }
    expect(types[0]).toBe("response.created")
    expect(types.at(-1)).toBe("response.completed")
    expect(text).toBe("streamed text")
    expect((await sdk.responses.retrieve(completedId)).status).toBe("completed")
  })

  it("a wrong key is refused with 401", async () => {
    const wrong = new OpenAI({ apiKey: "wrong-key-0123456789", baseURL: `${c.emu.url}/v1`, maxRetries: 0 })
    await expect(wrong.responses.create({ model: "hermes-agent", input: "hi" })).rejects.toMatchObject({ status: 401 })
  })
})
