// A namespace reset through the in-process fetch, after a Script upload each time, N times: µs per
// reset. usage: node bench/tools/reset-fetch.mjs [N] (the built package: npm run build)
import { ManagedRuntime } from "effect"
const { Emulator, layer } = await import("@hermetic/emulator")
const KEY = "bench-key-0123456789abcdef"
const runtime = ManagedRuntime.make(layer({ apiKey: KEY, hermesVersion: "0.21.0" }))
const emu = await runtime.runPromise(Emulator)
const hdr = { authorization: `Bearer ${KEY}`, "content-type": "application/json", "x-hermetic-namespace": "reused" }
const N = Number(process.argv[2] ?? 30000)
let t = 0
for (let i = 0; i < N; i++) {
  await emu.fetch("http://e/__admin/script", { method: "POST", headers: hdr, body: JSON.stringify({ turns: [{ replies: [{ text: "x" }] }] }) }).then((r) => r.arrayBuffer())
  const t0 = performance.now()
  const r = await emu.fetch("http://e/__admin/reset", { method: "POST", headers: hdr, body: "{}" }); await r.arrayBuffer()
  t += performance.now() - t0
}
console.log(`reset via fetch ${(t / N * 1000).toFixed(1)} µs`)
await runtime.dispose()
