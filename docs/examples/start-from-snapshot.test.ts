import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startEmulator } from "@hermetic/emulator"
import { expect, it } from "vitest"

const API_KEY = "test-key-0123456789"
const json = { "content-type": "application/json" }
const auth = { authorization: `Bearer ${API_KEY}`, ...json }

it("starts from a saved conversation", async () => {
  // once: build the state your tests need, and save it
  const seed = await startEmulator({ apiKey: API_KEY })
  await fetch(`${seed.url}/__admin/script`, { method: "POST", headers: auth, body: JSON.stringify({ turns: [{ replies: [{ text: "Noted: blue." }] }] }) })
  await fetch(`${seed.url}/v1/chat/completions`, {
    method: "POST",
    headers: { ...auth, "x-hermes-session-id": "support-42" },
    body: JSON.stringify({ model: "hermes-agent", messages: [{ role: "user", content: "My favourite colour is blue." }] })
  })
  const saved = await fetch(`${seed.url}/__admin/snapshot`, { method: "POST", headers: auth, body: JSON.stringify({ action: "save" }) })
  const { snapshot } = (await saved.json()) as { snapshot: unknown }
  const file = join(mkdtempSync(join(tmpdir(), "snap-")), "support-42.json")
  writeFileSync(file, JSON.stringify(snapshot))
  await seed.close()

  // each test: start from the file (CLI: hermes-emulator serve --snapshot support-42.json)
  const emu = await startEmulator({ apiKey: API_KEY, snapshot: file })
  try {
    const res = await fetch(`${emu.url}/api/sessions/support-42/messages`, { headers: auth })
    const { data } = (await res.json()) as { data: Array<{ role: string; content: string }> }
    expect(data.map((m) => [m.role, m.content])).toEqual([
      ["user", "My favourite colour is blue."],
      ["assistant", "Noted: blue."]
    ])
  } finally {
    await emu.close()
  }
})
