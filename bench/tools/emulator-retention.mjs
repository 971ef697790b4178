// One request at a time through the built emulator in process (Emulator.respond): old-space
// growth per request across two young-generation collections.
//   node --expose-gc bench/tools/emulator-retention.mjs POST /v1/runs '{"input":"hi"}'
import v8 from "node:v8"
const { ManagedRuntime } = await import("effect")
const { Emulator, layer } = await import("@hermetic/emulator")
const KEY = "bench-key-0123456789abcdef"
const rt = ManagedRuntime.make(layer({ apiKey: KEY, hermesVersion: "0.21.0", maxConcurrentRuns: 0, dataDir: "/tmp/prof/dd-" + process.pid }))
const emu = await rt.runPromise(Emulator)
const enc = new TextEncoder()
const [method, path, body] = [process.argv[2], process.argv[3], process.argv[4] ?? ""]
const bytes = enc.encode(body)
const req = (i) => ({ method, path, query: new URLSearchParams(), headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json", "content-length": String(bytes.length) }, body: bytes, aborted: new Promise(() => {}) })
const old = () => { const s = v8.getHeapSpaceStatistics(); return s.find((x) => x.space_name === "old_space").space_used_size + s.find((x) => x.space_name === "large_object_space").space_used_size }
const settle = async () => { for (let k = 0; k < 5; k++) await new Promise(setImmediate); await new Promise((r) => setTimeout(r, 2)) }
for (let i = 0; i < 300; i++) { await emu.respond(req(i)); await new Promise(setImmediate) }
global.gc(); await settle(); global.gc()
const deltas = []
for (let i = 0; i < 40; i++) {
  await settle(); global.gc({ type: "minor" }); global.gc({ type: "minor" })
  const o0 = old()
  await emu.respond(req(1000 + i))
  await settle(); global.gc({ type: "minor" }); global.gc({ type: "minor" })
  deltas.push(old() - o0)
}
deltas.sort((a, b) => a - b)
console.log(`${method} ${path}: old-space growth per request after 2 scavenges: median ${deltas[20]} B, min ${deltas[0]}, max ${deltas[39]}`)
process.exit(0)
