// CPU per POST /v1/runs in process: 4 concurrent callers of Emulator.respond, 5 rounds of 4,000 after
// 6,000 to warm up. PKG selects the package (an earlier build linked as @hermetic-a/emulator for A/B).
//   PKG=@hermetic-a/emulator node evidence/perf6/tools/inprocess-post.mjs
import { ManagedRuntime } from "effect"
const { Emulator, layer } = await import(process.env.PKG ?? "@hermetic/emulator")
const KEY = "bench-key-0123456789abcdef"
const rt = ManagedRuntime.make(layer({ apiKey: KEY, hermesVersion: "0.21.0", maxConcurrentRuns: 0, dataDir: "/tmp/prof/dd-" + process.pid, ...(process.env.JCAP ? { journal: { capacity: Number(process.env.JCAP) } } : {}) }))
const emu = await rt.runPromise(Emulator)
const enc = new TextEncoder()
const keyed = process.argv[2] === "keyed"
const req = (i) => ({ method: "POST", path: "/v1/runs", query: new URLSearchParams(), headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json", "content-length": "14", ...(keyed ? { "idempotency-key": `k${i}-${process.pid}` } : {}) }, body: enc.encode('{"input":"hi"}'), aborted: new Promise(() => {}) })
const C = Number(process.env.C ?? 4)
const round = async (n, base) => { await Promise.all(Array.from({ length: C }, async (_, k) => { for (let i = k; i < n; i += C) await emu.respond(req(base + i)) })); await new Promise((r) => setTimeout(r, 30)) }
await round(6000, 0)
const res = []
for (let r = 0; r < 5; r++) { const c0 = process.cpuUsage(); await round(4000, (r + 1) * 10000); const c = process.cpuUsage(c0); res.push((c.user + c.system) / 4000) }
res.sort((a, b) => a - b)
console.log(`${keyed ? "keyed" : "POST"} median ${res[2].toFixed(1)} µs [${res.map((x) => x.toFixed(0)).join(" ")}]`)
process.exit(0)
