import { journalOf, type RunningEmulator, startEmulator } from "@hermetic/emulator"
import OpenAI from "openai"
import { afterAll, beforeAll, expect, it } from "vitest"

// Your application: anything that talks to Hermes' OpenAI-compatible API.
async function summarize(client: OpenAI, text: string): Promise<string> {
  const res = await client.chat.completions.create({
    model: "hermes-agent",
    messages: [{ role: "user", content: `Summarize: ${text}` }]
  })
  return res.choices[0]?.message.content ?? ""
}

const API_KEY = "test-key-0123456789"
let emu: RunningEmulator

beforeAll(async () => {
  // journal.bodies: keep request bodies and the model calls (credentials redacted)
  emu = await startEmulator({ apiKey: API_KEY, journal: { bodies: true } })
})
afterAll(() => emu.close())

it("returns what the model says, and sends the user's text", async () => {
  // what the model will answer, turn by turn
  await fetch(`${emu.url}/__admin/script`, {
    method: "POST",
    // the control plane takes JSON, and the API key once one is set
    headers: { "content-type": "application/json", authorization: `Bearer ${API_KEY}` },
    body: JSON.stringify({ turns: [{ replies: [{ text: "Short version." }] }] })
  })
  const client = new OpenAI({ baseURL: `${emu.url}/v1`, apiKey: API_KEY })

  expect(await summarize(client, "a very long text")).toBe("Short version.")

  // verify what the app sent, and what the agent would have sent to the model
  const journal = journalOf(emu)
  const entry = await journal.expectRequest({ operation: "chat.completions", text: "a very long text" })
  expect(entry.request?.headers["authorization"]).toBe("[REDACTED]")
  expect(entry.modelCalls).toHaveLength(1)
  expect(entry.modelCalls[0]?.messages).toContainEqual({ role: "user", content: "Summarize: a very long text" })
  await journal.expectNoRequest({ operation: "runs.create" })
})
