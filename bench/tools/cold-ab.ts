// Cold start to the first 200 of /health, several commands in alternating rounds, as
// bench/suites.ts measures it (spawn, a TCP connect every 2 ms until the port accepts, then GET
// /health), plus the CLI's own "ready in". Each command starts once first, so a code cache exists.
// Each command is node's arguments (a script and its own), given --port and --data-dir.
//   node --import tsx bench/tools/cold-ab.ts '{"a":["packages/emulator/bin/hermes-emulator.cjs","serve"],"b":[…]}' [rounds]
import { spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Schema } from "effect"
import { spread } from "../stats.js"
import { untilHealthy } from "./accepts.js"

const Variants = Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) }))

/** CPU of every thread of a process so far, from /proc (schedstat's first field, ns). */
const threadsCpuMs = (pid: number): number => {
  let ns = 0
  for (const task of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0])
  return ns / 1e6
}
interface Sample { readonly wall: number; readonly cpu: number; readonly own: number | undefined }
let nextPort = 19000 + Math.floor(Math.random() * 1000)
const once = async (args: ReadonlyArray<string>): Promise<Sample> => {
  const port = nextPort++
  const dir = mkdtempSync(join(tmpdir(), "hermetic-cold-"))
  const t0 = performance.now()
  const child = spawn("node", [...args, "--port", String(port), "--data-dir", dir], { stdio: ["ignore", "pipe", "inherit"] })
  let own: number | undefined
  child.stdout.on("data", (c: Buffer) => { const m = /ready in (\d+) ms/.exec(String(c)); if (m) own = Number(m[1]) })
  await untilHealthy(port)
  const wall = performance.now() - t0
  const cpu = child.pid === undefined ? Number.NaN : threadsCpuMs(child.pid)
  child.kill("SIGTERM")
  await new Promise((r) => child.once("exit", r))
  rmSync(dir, { recursive: true, force: true })
  return { wall, cpu, own }
}
const variants = Schema.decodeUnknownSync(Variants)(process.argv[2])
const rounds = Number(process.argv[3] ?? 15)
for (const v of Object.values(variants)) await once(v)
const res = new Map<string, Array<Sample>>(Object.keys(variants).map((k) => [k, []]))
for (let r = 0; r < rounds; r++) for (const [k, v] of Object.entries(variants)) res.get(k)?.push(await once(v))
console.log(`${rounds} alternating rounds; medians (min-max)`)
for (const [k, xs] of res) {
  const w = spread(xs.map((x) => x.wall)), c = spread(xs.map((x) => x.cpu))
  const o = xs.flatMap((x) => (x.own === undefined ? [] : [x.own]))
  console.log(`${k.padEnd(8)} wall ${w.median.toFixed(1)} ms (${w.min.toFixed(0)}-${w.max.toFixed(0)}), CPU ${c.median.toFixed(1)} ms, own start ${o.length === 0 ? "not printed" : `${spread(o).median} ms`}`)
}
