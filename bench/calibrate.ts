/**
 * How this machine's "CPU per request" responds to a server's own work: the bare reference
 * (bench/servers/bare.ts) with N µs of pure computation added to every request (`--burn-micros`),
 * loaded exactly as the bare section loads it. On a machine whose load generator shares the cores
 * with the server, a slower server answers each request alone — one wake-up, one read, one write,
 * one wake-up of the client — while a fast one takes several per wake-up; the measured CPU per
 * request then grows by more than the work added. This is what a CPU ratio against the bare
 * reference carries, and why a µs saved in the emulator's own code shows as more than a µs in it.
 *
 *   npm run bench:calibrate -- [--op get|post] [--burns 0,50,100,200,300] [--seconds 3] [--out FILE]
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { parseArgs } from "node:util"
import { startChild } from "./child.js"
import { SPECS, targetOf } from "./emulator-vs-bare.js"
import { runLoad } from "./load.js"
import { fmt } from "./stats.js"

const { values } = parseArgs({
  options: { op: { type: "string" }, burns: { type: "string" }, seconds: { type: "string" }, out: { type: "string" }, help: { type: "boolean" } }
})
if (values.help === true) {
  process.stdout.write("npm run bench:calibrate -- [--op get|post] [--burns 0,50,100,200,300] [--seconds 3] [--out FILE]\n")
  process.exit(0)
}
const OPS = { get: 0, post: 1 } as const
const op = (values.op ?? "post") as keyof typeof OPS
if (!(op in OPS)) {
  process.stderr.write(`--op must be get or post (got ${op})\n`)
  process.exit(2)
}
const spec = SPECS[OPS[op]]!
const burns = (values.burns ?? "0,50,100,200,300").split(",").map(Number)
if (burns.some((b) => !Number.isFinite(b) || b < 0)) {
  process.stderr.write(`--burns must be a comma-separated list of non-negative µs (got ${values.burns})\n`)
  process.exit(2)
}
const seconds = Number(values.seconds ?? 3)
const out = values.out ?? "evidence/benchmarks/calibration/calibration.json"

interface Point {
  readonly burnMicros: number
  readonly cpuMicrosPerRequest: number
  /** CPU per request beyond the work added: what answering costs the process around it. */
  readonly overheadMicros: number
  readonly requestsPerSecond: number
}

const points: Array<Point> = []
for (const burn of burns) {
  process.stderr.write(`  ${spec.name}, bare + ${burn} µs of work per request …\n`)
  const child = await startChild("bench/servers/bare.ts", ["--burn-micros", String(burn)])
  try {
    const target = targetOf(child)
    await runLoad(spec, target, 1)
    const r = await runLoad(spec, target, seconds)
    points.push({ burnMicros: burn, cpuMicrosPerRequest: r.cpuMicrosPerRequest, overheadMicros: r.cpuMicrosPerRequest - burn, requestsPerSecond: r.requestsPerSecond })
  } finally {
    await child.stop()
  }
}

mkdirSync(dirname(out), { recursive: true })
writeFileSync(out, JSON.stringify({ op: spec.name, seconds, points }, null, 2) + "\n")
process.stdout.write(`\n${spec.name}: the bare reference with work added per request\n`)
process.stdout.write("| work added, µs | CPU per request, µs | beyond the work added, µs | req/s |\n| ---: | ---: | ---: | ---: |\n")
for (const p of points) {
  process.stdout.write(`| ${p.burnMicros} | ${fmt(p.cpuMicrosPerRequest)} | ${fmt(p.overheadMicros)} | ${fmt(p.requestsPerSecond)} |\n`)
}
process.stdout.write(`\nwritten: ${out}\n`)
