/**
 * `npm run bench`: every benchmark of the project, measured side by side in one run on one
 * machine, printed as tables of ratios, written to evidence/bench.json and to the bench section of
 * evidence/REPORT.md. Load stays on loopback, bounded in count and time; progress goes to stderr.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { cpus, loadavg, release, totalmem, type as osType } from "node:os"
import { parseArgs } from "node:util"
import { calibrationMs } from "./calibration.js"
import { differ } from "./differ.js"
import { emulatorVsBare, renderEmulatorVsBare } from "./emulator-vs-bare.js"
import { emulatorVsGateway, PIN } from "./emulator-vs-gateway.js"
import {
  type BenchFile,
  type Machine,
  readPrevious,
  renderDiffer,
  renderGateway,
  renderMarkdown,
  renderScale,
  SCHEMA_VERSION,
  SECTION_KEYS,
  type SectionKey,
  renderSuites,
  type SectionMeta,
  type SectionName,
  writeReportSection
} from "./report.js"
import { latencyFlatness, scale } from "./scale.js"
import { renderStores, stores } from "./stores.js"
import { suites } from "./suites.js"

const HELP = `npm run bench -- [options]

Measures, on this machine, side by side, and prints ratios:
  gateway  the emulator vs the real Hermes ${PIN} gateway (oracle runner, process launcher, same fake-model
           Script): GET /v1/runs/{id}, POST /v1/runs, chat completion (plain and streamed: first chunk and
           total), a full run (POST, poll until completed); cold start to the first answer
           (hermes-emulator serve vs hermes gateway run). Targets: ≥ 50× GET, ≥ 100× full run, ≥ 20× cold start.
           Needs the pin's venv (npm run oracle-runner -- doctor); load on the gateway: few connections, few seconds.
  bare     the emulator vs a bare node:http + better-sqlite3 server doing the same SQL work (target: within 2×);
           both as plain JavaScript, the emulator as its built package (npm run bench:calibrate: how the
           figure answers a server's own work on this machine)
  scale    GET /v1/runs/{id} latency and RSS with 1k, 100k, 1M stored runs (file storage), keyed POST,
           and the retention sweep's cost against the number of expired runs
           on the bundled CLI (targets: latency flat within 20 %, RSS ≤ 150 MiB at 1M)
  stores   every route with each store (sessions with fork chains and messages, jobs, stored responses,
           runs) grown over HTTP to 1k and to 10k, on the bundled CLI: each route's p50 and CPU at 10k ÷ at 1k
           (target ≤ 1.5×); --quick: 200 and 2,000. Runs at 1M are the scale section's
  differ   scenarios/s of the differ against the emulator in process; time to replay all committed cassettes
  suites   what test suites feel: the Layer's start, a namespace reset, 1,000 isolated tests (a Script reply + one
           chat completion each) in process and over HTTP, and vitest files sharing one emulator through namespaces
           (targets: start ≤ 20 ms, reset ≤ 0.2 ms, 1,000 tests in process ≤ 0.4 s)

Options:
  --only SECTION[,SECTION]  run only these sections (repeatable); the others are kept from the previous
                            evidence/bench.json
  --quick                   a short run to check the bench works (1 round, 1 s, scale up to 10k runs);
                            numbers are indicative only and marked so
  --rounds N                rounds per measurement; the median and min–max are reported (default 3)
  --seconds S               seconds per load measurement (default: gateway 3, bare 5, scale 3)
  --connections N           concurrent connections against the gateway and the emulator (default 4)
  --out DIR                 where bench.json and REPORT.md go (default: evidence)
  --render                  measure nothing: re-render the REPORT.md section from bench.json
  -h, --help                this help

Progress goes to stderr, the tables to stdout. Nothing binds beyond 127.0.0.1. These are benchmarks,
not tests: nothing in npm test asserts a duration.
`

const SECTIONS: ReadonlyArray<SectionName> = ["gateway", "bare", "scale", "stores", "differ", "suites"]

const { values } = parseArgs({
  options: {
    only: { type: "string", multiple: true },
    quick: { type: "boolean" },
    rounds: { type: "string" },
    seconds: { type: "string" },
    connections: { type: "string" },
    out: { type: "string" },
    render: { type: "boolean" },
    help: { type: "boolean", short: "h" }
  }
})
if (values.help === true) {
  process.stdout.write(HELP)
  process.exit(0)
}
const fail = (message: string): never => {
  process.stderr.write(`bench: ${message}\nRun 'npm run bench -- --help' for usage.\n`)
  process.exit(2)
}
const positive = (name: string, raw: string | undefined): number | undefined => {
  if (raw === undefined) return undefined
  const n = Number(raw)
  if (!Number.isFinite(n) || n <= 0) fail(`--${name} must be a positive number, got '${raw}'`)
  return n
}
const only = (values.only ?? []).flatMap((s) => s.split(",")).map((s) => s.trim()).filter((s) => s !== "")
for (const s of only) if (!SECTIONS.includes(s as SectionName)) fail(`unknown section '${s}' (known: ${SECTIONS.join(", ")})`)
const selected = values.render === true ? [] : only.length === 0 ? SECTIONS : SECTIONS.filter((s) => only.includes(s))
const quick = values.quick === true
const rounds = positive("rounds", values.rounds) ?? (quick ? 1 : 3)
const secondsFlag = positive("seconds", values.seconds)
const connections = positive("connections", values.connections) ?? 4
const outDir = values.out ?? "evidence"

const log = (s: string) => process.stderr.write(`${s}\n`)
const loadAverage = () => loadavg().map((x) => Math.round(x * 100) / 100)

const machine: Machine = {
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? "unknown",
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  os: `${osType()} ${release()}`,
  node: process.version,
  loadAverageAtStart: loadAverage(),
  loadAverageAtEnd: [],
  note: "The load generator runs on the same cores as the servers it measures; the machine is shared, so other work shows in the min–max."
}
const startedAt = Date.now()
log(`bench on ${machine.cpus}× ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}; load average ${machine.loadAverageAtStart.join(" ")}`)
log(`sections: ${selected.join(", ")}; ${rounds} round(s)${quick ? "; --quick" : ""}`)

const outFile = `${outDir}/bench.json`
const previous = readPrevious(outFile)
const meta: Partial<Record<SectionName, SectionMeta>> = { ...(previous.sectionMeta ?? {}) }
const results: { -readonly [K in SectionKey]?: BenchFile[K] } = {}
for (const s of SECTIONS) {
  const key = SECTION_KEYS[s]
  if (!selected.includes(s) && previous[key] !== undefined) Object.assign(results, { [key]: previous[key] })
}

/** The code a section measures: HEAD, and whether the work tree differed from it. */
const codeCommit = (): string => {
  try {
    const head = execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim()
    const dirty = execFileSync("git", ["status", "--porcelain", "--", "packages", "bench"], { encoding: "utf8" }).trim() !== ""
    return dirty ? `${head} (with uncommitted changes)` : head
  } catch {
    return "unknown (not a git checkout)"
  }
}

const measure = async <A>(name: SectionName, seconds: number, body: () => Promise<A>, render: (a: A) => string, title: string) => {
  log(`\n== ${title} ==`)
  const before = loadAverage()
  const speedBefore = calibrationMs()
  log(`  machine speed: bench/calibration.ts' fixed CPU loop took ${speedBefore} ms`)
  const t0 = Date.now()
  const result = await body()
  const durationSeconds = Math.round((Date.now() - t0) / 1000)
  meta[name] = {
    measuredAt: new Date(t0).toISOString(),
    commit: codeCommit(),
    quick,
    rounds,
    seconds,
    loadAverageBefore: before,
    loadAverageAfter: loadAverage(),
    durationSeconds,
    calibrationMs: { before: speedBefore, after: calibrationMs() }
  }
  Object.assign(results, { [SECTION_KEYS[name]]: result })
  process.stdout.write(`\n## ${title}\n\n${render(result)}\n`)
}

let failed = false
const guarded = async (name: SectionName, run: () => Promise<void>) => {
  try {
    await run()
  } catch (e) {
    failed = true
    log(`bench: section ${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
  }
}

if (selected.includes("gateway")) {
  const seconds = secondsFlag ?? (quick ? 1 : 3)
  await guarded("gateway", () =>
    measure(
      "gateway",
      seconds,
      () => emulatorVsGateway({ rounds, seconds, warmupSeconds: quick ? 0 : 1, connections, coldStartRounds: quick ? 1 : Math.max(5, rounds), log }),
      renderGateway,
      `Emulator vs the real ${PIN} gateway`
    )
  )
}
if (selected.includes("bare")) {
  const seconds = secondsFlag ?? (quick ? 1 : 5)
  await guarded("bare", () =>
    measure(
      "bare",
      seconds,
      () => emulatorVsBare({ rounds, seconds, warmupSeconds: quick ? 0.5 : 1, log }),
      renderEmulatorVsBare,
      "Emulator vs bare node:http + better-sqlite3 (target: within 2×)"
    )
  )
}
if (selected.includes("scale")) {
  const seconds = secondsFlag ?? (quick ? 1 : 3)
  await guarded("scale", () =>
    measure(
      "scale",
      seconds,
      () =>
        scale({
          sizes: quick ? [1_000, 10_000] : [1_000, 100_000, 1_000_000],
          sweepSizes: quick ? [1_000, 10_000] : [1_000, 10_000, 100_000, 1_000_000],
          rounds,
          seconds,
          warmupSeconds: quick ? 1 : 10,
          connections,
          log
        }),
      renderScale,
      "Scale (stored runs)"
    )
  )
}
if (selected.includes("stores")) {
  await guarded("stores", () =>
    measure(
      "stores",
      0,
      () => stores({ small: quick ? 200 : 1_000, large: quick ? 2_000 : 10_000, rounds, callsPerRound: quick ? 20 : 60, log }),
      renderStores,
      "Store growth"
    )
  )
}
if (selected.includes("differ")) {
  await guarded("differ", () =>
    measure("differ", 0, () => differ({ rounds, scenarios: quick ? 20 : 200, pin: PIN, log }), renderDiffer, "The differ")
  )
}

if (selected.includes("suites")) {
  await guarded("suites", () =>
    measure("suites", 0, () => suites({ rounds, tests: quick ? 200 : 1000, log }), renderSuites, "What test suites feel")
  )
}

// the flatness verdict follows its current definition, also for a scale section kept from before
if (results.scale !== undefined) results.scale = { ...results.scale, latencyFlat: latencyFlatness(results.scale.points) }

const file: BenchFile =
  selected.length === 0 && previous.machine !== undefined && previous.measuredAt !== undefined && previous.command !== undefined
    ? { ...(previous as BenchFile), sectionMeta: meta, ...results }
    : {
  schemaVersion: SCHEMA_VERSION,
  measuredAt: new Date(startedAt).toISOString(),
  command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`,
  machine: { ...machine, loadAverageAtEnd: loadAverage() },
  sectionMeta: meta,
  ...results
}
mkdirSync(outDir, { recursive: true })
writeFileSync(outFile, `${JSON.stringify(file, null, 2)}\n`)
writeReportSection(`${outDir}/REPORT.md`, renderMarkdown(file))
log(`\nwrote ${outFile} and the bench section of ${outDir}/REPORT.md (${Math.round((Date.now() - startedAt) / 1000)} s)`)
process.exit(failed ? 1 : 0)
