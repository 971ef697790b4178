/**
 * Where a request's CPU goes, the emulator beside the bare reference (the servers of the bare
 * section): each side is loaded with one operation, and during the measured window V8's CPU
 * profiler samples it and a PerformanceObserver counts its garbage collections. Prints, per
 * request: CPU, then the busy samples split by what ran on top (SQLite's native calls, the Effect
 * runtime, the server's own code, Node's HTTP and socket internals, the collector), the
 * collections, and the functions with the most self time. Writes the profiles (.cpuprofile, open them in Chrome DevTools)
 * and a summary JSON to --out.
 *
 *   npm run bench:profile -- [--op get|post|keyed] [--seconds 5] [--out DIR]
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { startChild } from "./child.js"
import { SPECS, targetOf } from "./emulator-vs-bare.js"
import { runLoad } from "./load.js"
import { fmt } from "./stats.js"

const { values } = parseArgs({ options: { op: { type: "string" }, seconds: { type: "string" }, out: { type: "string" }, help: { type: "boolean" } } })
if (values.help === true) {
  process.stdout.write("npm run bench:profile -- [--op get|post|keyed] [--seconds 5] [--out DIR]\n")
  process.exit(0)
}
const OPS = { get: 0, post: 1, keyed: 2 } as const
const op = (values.op ?? "post") as keyof typeof OPS
if (!(op in OPS)) {
  process.stderr.write(`--op must be get, post or keyed (got ${op})\n`)
  process.exit(2)
}
const spec = SPECS[OPS[op]]!
const seconds = Number(values.seconds ?? 5)
const out = values.out ?? join("evidence", "benchmarks", "cpu-profiles")
mkdirSync(out, { recursive: true })

interface CpuProfile {
  readonly nodes: ReadonlyArray<{ readonly id: number; readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number } }>
  readonly samples: ReadonlyArray<number>
}
interface GcTally {
  readonly minor: { readonly count: number; readonly ms: number }
  readonly major: { readonly count: number; readonly ms: number }
}

// better-sqlite3's native statement methods: the profiler gives a native function a frame of its own, without a script
const SQLITE_NATIVE = new Set(["run", "get", "all", "iterate", "exec", "pragma", "prepare"])

/** What ran on top of a sample, by the script it belongs to. */
const category = (url: string, fn: string): string => {
  if (fn === "(garbage collector)") return "garbage collector (main thread)"
  if (fn === "(idle)") return "idle"
  if (fn === "(program)") return "V8 (program)"
  if (url === "" && SQLITE_NATIVE.has(fn)) return "SQLite (better-sqlite3's native calls: statements, BEGIN/COMMIT)"
  if (url.includes("/node_modules/effect/") || url.includes("/node_modules/@effect/")) return "Effect runtime"
  if (url.includes("better-sqlite3")) return "better-sqlite3 (JS side)"
  if (url.includes("/packages/") || url.includes("/bench/servers/")) return "server code"
  if (url.startsWith("node:") || url === "") return "Node internals (HTTP, streams, sockets, other native calls)"
  return "other"
}

const analyse = (profile: CpuProfile, cpuPerRequest: number) => {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]))
  const cats = new Map<string, number>()
  const fns = new Map<string, number>()
  let busy = 0
  for (const id of profile.samples) {
    const frame = byId.get(id)
    if (frame === undefined) continue
    const cat = category(frame.url, frame.functionName)
    cats.set(cat, (cats.get(cat) ?? 0) + 1)
    if (cat === "idle") continue
    busy++
    const where = frame.url === "" ? frame.functionName : `${frame.functionName || "(anonymous)"} ${frame.url.split("/").slice(-2).join("/")}:${frame.lineNumber + 1}`
    fns.set(where, (fns.get(where) ?? 0) + 1)
  }
  // busy samples share the measured CPU per request (idle ones are the process waiting)
  const perRequest = (n: number) => (busy === 0 ? 0 : (n / busy) * cpuPerRequest)
  return {
    categories: [...cats].filter(([c]) => c !== "idle").sort((a, b) => b[1] - a[1]).map(([name, n]) => ({ name, micros: perRequest(n) })),
    functions: [...fns].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([name, n]) => ({ name, micros: perRequest(n) }))
  }
}

const side = async (label: string, script: string) => {
  const child = await startChild(script)
  try {
    const target = targetOf(child)
    await runLoad(spec, target, 1)
    await fetch(`http://127.0.0.1:${child.controlPort}/profile/start`)
    const load = await runLoad(spec, target, seconds)
    const { profile, gc } = (await (await fetch(`http://127.0.0.1:${child.controlPort}/profile/stop`)).json()) as { profile: CpuProfile; gc: GcTally }
    writeFileSync(join(out, `${label}-${op}.cpuprofile`), JSON.stringify(profile))
    return {
      label,
      requests: load.requests,
      requestsPerSecond: load.requestsPerSecond,
      cpuMicrosPerRequest: load.cpuMicrosPerRequest,
      gc: {
        scavenges: gc.minor.count,
        markCompacts: gc.major.count,
        pauseMicrosPerRequest: ((gc.minor.ms + gc.major.ms) * 1000) / Math.max(1, load.requests)
      },
      ...analyse(profile, load.cpuMicrosPerRequest)
    }
  } finally {
    await child.stop()
  }
}

const sides = [await side("emulator", "bench/servers/emulator.ts"), await side("bare", "bench/servers/bare.ts")]
writeFileSync(join(out, `profile-${op}.json`), JSON.stringify({ op: spec.name, seconds, sides }, null, 2))
for (const s of sides) {
  process.stdout.write(`\n${s.label} — ${spec.name}: ${fmt(s.cpuMicrosPerRequest)} µs CPU per request, ${fmt(s.requestsPerSecond)} req/s\n`)
  process.stdout.write(`  garbage collection: ${s.gc.scavenges} scavenges, ${s.gc.markCompacts} mark-compacts, ${fmt(s.gc.pauseMicrosPerRequest, 1)} µs of pauses per request\n`)
  for (const c of s.categories) process.stdout.write(`  ${fmt(c.micros, 1).padStart(7)} µs  ${c.name}\n`)
  process.stdout.write("  top functions by self time:\n")
  for (const f of s.functions) process.stdout.write(`  ${fmt(f.micros, 1).padStart(7)} µs  ${f.name}\n`)
}
process.stdout.write(`\nprofiles and summary: ${out}\n`)
