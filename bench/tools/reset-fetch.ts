// A namespace reset through the in-process fetch, after a Script upload each time, N times: µs per
// reset. The built package (npm run build).
//   node --import tsx bench/tools/reset-fetch.ts [N]
import { ManagedRuntime } from "effect"
import { Emulator, layer } from "@hermetic/emulator"

const KEY = "bench-key-0123456789abcdef"
const runtime = ManagedRuntime.make(layer({ apiKey: KEY, hermesVersion: "0.21.0" }))
const emu = await runtime.runPromise(Emulator)
const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json", "x-hermetic-namespace": "reused" }
const N = Number(process.argv[2] ?? 30000)
let total = 0
for (let i = 0; i < N; i++) {
  await emu.fetch("http://e/__admin/script", { method: "POST", headers, body: JSON.stringify({ turns: [{ replies: [{ text: "x" }] }] }) }).then((r) => r.arrayBuffer())
  const t0 = performance.now()
  const r = await emu.fetch("http://e/__admin/reset", { method: "POST", headers, body: "{}" })
  await r.arrayBuffer()
  total += performance.now() - t0
}
console.log(`reset via fetch ${(total / N * 1000).toFixed(1)} µs (${N} resets)`)
await runtime.dispose()
