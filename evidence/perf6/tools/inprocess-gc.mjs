// Young collections during POST /v1/runs in process (a PerformanceObserver), and the heap in use after 26,000.
//   node [--trace-gc-nvp] evidence/perf6/tools/inprocess-gc.mjs
import { ManagedRuntime } from "effect"
import { PerformanceObserver } from "node:perf_hooks"
const { Emulator, layer } = await import(process.env.PKG ?? "@hermetic/emulator")
const KEY = "bench-key-0123456789abcdef"
const rt = ManagedRuntime.make(layer({ apiKey: KEY, hermesVersion: "0.21.0", maxConcurrentRuns: 0, dataDir: "/tmp/prof/dd-" + process.pid, ...(process.env.JCAP ? { journal: { capacity: Number(process.env.JCAP) } } : {}) }))
const emu = await rt.runPromise(Emulator)
const enc = new TextEncoder()
const req = (i) => ({ method: "POST", path: "/v1/runs", query: new URLSearchParams(), headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json", "content-length": "14" }, body: enc.encode('{"input":"hi"}'), aborted: new Promise(() => {}) })
const C = 4
const round = async (n, base) => { await Promise.all(Array.from({ length: C }, async (_, k) => { for (let i = k; i < n; i += C) await emu.respond(req(base + i)) })); await new Promise((r) => setTimeout(r, 30)) }
let gc = { n: 0, ms: 0, major: 0, majorMs: 0 }
new PerformanceObserver((l) => { for (const e of l.getEntries()) { if (e.detail?.kind === 1 || e.kind === 1) { gc.n++; gc.ms += e.duration } else { gc.major++; gc.majorMs += e.duration } } }).observe({ entryTypes: ["gc"] })
await round(6000, 0)
const res = []
for (let r = 0; r < 5; r++) { gc = { n: 0, ms: 0, major: 0, majorMs: 0 }; const c0 = process.cpuUsage(); await round(4000, (r + 1) * 10000); const c = process.cpuUsage(c0); await new Promise((r) => setTimeout(r, 10)); res.push([(c.user + c.system) / 4000, gc.n, gc.ms * 1000 / 4000, gc.major, gc.majorMs * 1000 / 4000]) }
for (const r of res) console.log(`cpu ${r[0].toFixed(1)} µs; scavenges ${r[1]} (${r[2].toFixed(1)} µs/req); major ${r[3]} (${r[4].toFixed(1)} µs/req)`)
const m = process.memoryUsage(); console.log("heapUsed MiB", (m.heapUsed / 1048576).toFixed(1))
process.exit(0)
