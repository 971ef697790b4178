// How much the cold-start poller itself costs (bench/suites.ts): fetch polling every 2 ms vs a TCP
// connect probe every 2 ms and then one fetch, on the bundled CLI, 10 interleaved rounds.
//   node evidence/perf3/coldstart/poller-cost.mjs
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
const freePort = () => new Promise((r) => { const s = createServer(); s.listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => r(p)) }) })
const tcpOpen = (port) => new Promise((r) => { const s = connect(port, "127.0.0.1"); s.once("connect", () => { s.destroy(); r(true) }); s.once("error", () => r(false)) })
const once = async (mode) => {
  const port = await freePort(); const data = mkdtempSync(join(tmpdir(), "pc-"))
  const c0 = process.cpuUsage(); const t0 = performance.now(); let attempts = 0
  const p = spawn("node", ["packages/emulator/dist/hermes-emulator-launcher.cjs", "serve", "--port", String(port), "--data-dir", data, "--api-key", "0123456789abcdefXX"], { stdio: ["ignore", "pipe", "pipe"] }); p.stdout.resume(); p.stderr.resume()
  for (;;) {
    attempts++
    if (mode === "tcp" && !(await tcpOpen(port))) { await new Promise((r) => setTimeout(r, 2)); continue }
    try { const r = await fetch(`http://127.0.0.1:${port}/health`); await r.arrayBuffer(); if (r.status === 200) break } catch {}
    await new Promise((r) => setTimeout(r, 2))
  }
  const wall = performance.now() - t0; const cu = process.cpuUsage(c0)
  p.kill("SIGTERM"); await new Promise((r) => p.once("exit", r)); rmSync(data, { recursive: true, force: true })
  return { wall, pollerCpu: (cu.user + cu.system) / 1000, attempts }
}
const med = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]
const res = { fetch: [], tcp: [] }
await once("fetch")
for (let i = 0; i < 10; i++) for (const m of ["fetch", "tcp"]) res[m].push(await once(m))
console.log(`load ${(await import("node:os")).loadavg().map((x) => x.toFixed(2)).join(" ")}`)
for (const m of ["fetch", "tcp"]) console.log(m, "wall", med(res[m].map((x) => x.wall)).toFixed(1), "poller CPU", med(res[m].map((x) => x.pollerCpu)).toFixed(1), "attempts", med(res[m].map((x) => x.attempts)))
