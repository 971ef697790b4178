// (a) Plain Node ESM, no TypeScript, no Effect: start the emulator on a port, script what the
// model says, read it back over HTTP.
import { startEmulator } from "@hermetic/emulator"

const apiKey = "consumer-key-0123456789abcdef"
const emu = await startEmulator({ hermesVersion: "0.19.0", apiKey })
try {
  const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" }
  const scripted = await fetch(`${emu.url}/__admin/script`, {
    method: "POST",
    headers,
    body: JSON.stringify({ turns: [{ replies: [{ text: "Hello from a tarball" }] }] })
  })
  const chat = await fetch(`${emu.url}/v1/chat/completions`, {
    method: "POST",
    headers,
    body: JSON.stringify({ model: "hermes-agent", messages: [{ role: "user", content: "hi" }] })
  })
  const body = await chat.json()
  console.log(JSON.stringify({ script: scripted.status, status: chat.status, content: body.choices?.[0]?.message?.content }))
} finally {
  await emu.close()
}
