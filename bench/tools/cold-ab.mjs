#!/usr/bin/env node
// Cold start to the first 200 of /health, several commands in alternating rounds, as
// bench/suites.ts measures it (spawn, a TCP connect every 2 ms until the port accepts, then GET
// /health), plus the CLI's own "ready in". Each command starts once first, so a code cache exists.
// usage: node cold-ab.mjs '{"name":["script.cjs","serve",...],...}' [rounds]
import { spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

const accepts = (port) => new Promise((resolve) => {
  const s = connect(port, "127.0.0.1")
  s.once("connect", () => { s.destroy(); resolve(true) })
  s.once("error", () => resolve(false))
})
const threadsCpuMs = (pid) => {
  let ns = 0
  for (const task of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0])
  return ns / 1e6
}
let nextPort = 19000 + Math.floor(Math.random() * 1000)
const once = async (args) => {
  const port = nextPort++
  const dir = mkdtempSync(join(tmpdir(), "hermetic-cold-"))
  const t0 = performance.now()
  const child = spawn("node", [...args, "--port", String(port), "--data-dir", dir], { stdio: ["ignore", "pipe", "inherit"] })
  let own
  child.stdout.on("data", (c) => { const m = /ready in (\d+) ms/.exec(String(c)); if (m) own = Number(m[1]) })
  for (;;) {
    if (!(await accepts(port))) { await new Promise((r) => setTimeout(r, 2)); continue }
    const r = await fetch(`http://127.0.0.1:${port}/health`)
    await r.arrayBuffer()
    if (r.status === 200) break
  }
  const wall = performance.now() - t0
  const cpu = threadsCpuMs(child.pid)
  child.kill("SIGTERM")
  await new Promise((r) => child.once("exit", r))
  rmSync(dir, { recursive: true, force: true })
  return { wall, cpu, own }
}
const variants = JSON.parse(process.argv[2])
const rounds = Number(process.argv[3] ?? 15)
for (const v of Object.values(variants)) await once(v)
const res = Object.fromEntries(Object.keys(variants).map((k) => [k, []]))
for (let r = 0; r < rounds; r++) for (const [k, v] of Object.entries(variants)) res[k].push(await once(v))
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
console.log(`${rounds} alternating rounds; medians (min-max)`)
for (const [k, xs] of Object.entries(res)) {
  const w = xs.map((x) => x.wall), c = xs.map((x) => x.cpu), o = xs.map((x) => x.own ?? 0)
  console.log(`${k.padEnd(8)} wall ${med(w).toFixed(1)} ms (${Math.min(...w).toFixed(0)}-${Math.max(...w).toFixed(0)}), CPU ${med(c).toFixed(1)} ms, own start ${med(o)} ms`)
}
