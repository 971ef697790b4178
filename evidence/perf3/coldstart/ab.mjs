// Cold-start A/B used for evidence/perf3/coldstart/ab-*.json: interleaved rounds of several
// commands, each spawned to its first 200 of GET /health (polled every 2 ms, as bench/suites.ts
// does), with the process's CPU from /proc (every thread's schedstat, and the main thread's alone).
// One warm-up start per command first (it writes the V8 code cache the rounds then use).
//   node evidence/perf3/coldstart/ab.mjs ROUNDS OUT.json 'label:command with PORT and DATA' ...
import { spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"

const [rounds, out, ...specs] = [Number(process.argv[2]), process.argv[3], ...process.argv.slice(4)]
const variants = specs.map((s) => [s.slice(0, s.indexOf(":")), s.slice(s.indexOf(":") + 1)])
const freePort = () => new Promise((r) => { const s = createServer(); s.listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => r(p)) }) })
const schedMs = (path) => Number(readFileSync(path, "utf8").split(" ")[0]) / 1e6
const cpuOf = (pid) => readdirSync(`/proc/${pid}/task`).reduce((a, t) => a + schedMs(`/proc/${pid}/task/${t}/schedstat`), 0)

const once = async (command) => {
  const port = await freePort()
  const data = mkdtempSync(join(tmpdir(), "hermetic-ab-"))
  const args = command.split(" ").map((a) => a.replace("PORT", String(port)).replace("DATA", data))
  const t0 = performance.now()
  const p = spawn(args[0], args.slice(1), { stdio: ["ignore", "pipe", "pipe"] })
  p.stdout.resume()
  p.stderr.resume()
  for (;;) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/health`)
      await r.arrayBuffer()
      if (r.status === 200) break
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 2))
    if (performance.now() - t0 > 20_000) throw new Error(`no answer: ${command}`)
  }
  const wall = performance.now() - t0
  const cpu = cpuOf(p.pid)
  const main = schedMs(`/proc/${p.pid}/schedstat`)
  p.kill("SIGTERM")
  await new Promise((r) => p.once("exit", r))
  rmSync(data, { recursive: true, force: true })
  return { wall, cpu, main }
}

const spread = (xs) => { const s = [...xs].sort((a, b) => a - b); return { median: s[Math.floor(s.length / 2)], min: s[0], max: s.at(-1) } }
const samples = Object.fromEntries(variants.map(([l]) => [l, { wall: [], cpu: [], main: [] }]))
const loadStart = loadavg()
for (const [, c] of variants) await once(c)
for (let i = 0; i < rounds; i++) {
  for (const [l, c] of variants) {
    const r = await once(c)
    for (const k of ["wall", "cpu", "main"]) samples[l][k].push(r[k])
  }
}
const result = {
  rounds,
  node: process.version,
  loadAverage: { start: loadStart, end: loadavg() },
  commands: Object.fromEntries(variants),
  ms: Object.fromEntries(variants.map(([l]) => [l, { wallMs: spread(samples[l].wall), cpuMs: spread(samples[l].cpu), mainThreadCpuMs: spread(samples[l].main) }]))
}
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`)
for (const [l] of variants) {
  const m = result.ms[l]
  console.log(`${l.padEnd(22)} wall ${m.wallMs.median.toFixed(1)} (${m.wallMs.min.toFixed(1)}–${m.wallMs.max.toFixed(1)})  CPU ${m.cpuMs.median.toFixed(1)}  main thread ${m.mainThreadCpuMs.median.toFixed(1)}`)
}
console.log(`load ${loadStart.map((x) => x.toFixed(2)).join(" ")} → ${loadavg().map((x) => x.toFixed(2)).join(" ")}`)
