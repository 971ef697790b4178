// Cold start of the bundled CLI with a V8 code cache written by a long-lived, loaded process vs by a
// start stopped at once (8 starts each).   npx tsx evidence/perf6/tools/code-cache-writer.ts
// Does the code cache's writer matter? A cache written at the exit of a long-lived, loaded process vs one written by a short start.
import { execa } from "execa"
import { rmSync, mkdtempSync, statSync, readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runLoad } from "../../../bench/load.js"
import { SPECS } from "../../../bench/emulator-vs-bare.js"
const KEY = "bench-key-0123456789abcdef"
const launcher = process.argv[2] ?? "packages/emulator/dist/hermes-emulator-launcher.cjs"
const cacheDir = join(tmpdir(), "hermetic-compile-cache")
let port = 45000
const start = async () => {
  const p = port++
  const dataDir = mkdtempSync(join(tmpdir(), "hermetic-cq-"))
  const t0 = performance.now()
  const proc = execa("node", [launcher, "serve", "--hermes-version", "0.21.0", "--api-key", KEY, "--port", String(p), "--data-dir", dataDir], { reject: false, stdin: "ignore" })
  for (;;) {
    try { const r = await fetch(`http://127.0.0.1:${p}/health`); await r.arrayBuffer(); if (r.status === 200) break } catch {}
    await new Promise((r) => setTimeout(r, 2))
  }
  return { wall: performance.now() - t0, p, proc, dataDir }
}
const stop = async (s: Awaited<ReturnType<typeof start>>) => { s.proc.kill("SIGTERM"); await s.proc; rmSync(s.dataDir, { recursive: true, force: true }) }
const measure = async (label: string) => {
  const walls: number[] = []
  for (let i = 0; i < 8; i++) { const s = await start(); walls.push(s.wall); await stop(s) }
  walls.sort((a, b) => a - b)
  const f = readdirSync(cacheDir).map((n) => `${n.slice(0, 32)}… ${statSync(join(cacheDir, n)).size} B`).join(", ")
  console.log(`${label}: median ${walls[4]!.toFixed(1)} ms [${walls.map((w) => w.toFixed(0)).join(" ")}]  cache: ${f}`)
}
// 1. cache written by a long-lived, loaded process
rmSync(cacheDir, { recursive: true, force: true })
const long = await start()
const target = { baseUrl: `http://127.0.0.1:${long.p}`, apiKey: KEY, runId: "run_x", cpuMicros: async () => 0 }
for (let i = 0; i < 4; i++) { await runLoad(SPECS[1]!, target, 5); await runLoad({ ...SPECS[0]!, path: () => "/v1/models" } as any, target, 2) }
await stop(long)
await measure("cache from a process that ran 28 s under load")
// 2. cache written by a short start
rmSync(cacheDir, { recursive: true, force: true })
await stop(await start())
await measure("cache from a start stopped at once")
