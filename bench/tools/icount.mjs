// Instructions per POST /v1/runs in process (no socket), for cachegrind: run it twice with
// different counts and divide the difference (icount.sh does). PKG picks the package to load, so
// two builds can be compared (a copy of an older dist/ under another package name).
const mod = process.env.PKG ?? "@hermetic/emulator"
const { ManagedRuntime } = await import("effect")
const { Emulator, layer } = await import(mod)
const KEY = "bench-key-0123456789abcdef"
const rt = ManagedRuntime.make(layer({ apiKey: KEY, hermesVersion: "0.21.0", maxConcurrentRuns: 0, dataDir: `/tmp/hermetic-icount-${process.pid}` }))
const emu = await rt.runPromise(Emulator)
const enc = new TextEncoder()
const keyed = process.argv[3] === "keyed"
const req = (i) => ({
  method: "POST",
  path: "/v1/runs",
  query: new URLSearchParams(),
  headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json", "content-length": "14", ...(keyed ? { "idempotency-key": `k${i}` } : {}) },
  body: enc.encode('{"input":"hi"}'),
  aborted: new Promise(() => {})
})
const CONNECTIONS = 4
const round = async (n, base) => {
  await Promise.all(Array.from({ length: CONNECTIONS }, async (_, k) => {
    for (let i = k; i < n; i += CONNECTIONS) await emu.respond(req(base + i))
  }))
  await new Promise((r) => setTimeout(r, 30))
}
await round(3000, 0) // warm-up: V8 has compiled the hot code before the counted requests
await round(Number(process.argv[2]), 100000)
process.exit(0)
