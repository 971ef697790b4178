/**
 * evidence/bench.json (schema-versioned; sections not re-measured by `--only` are kept from the
 * previous file) and the bench's section of evidence/REPORT.md, between `<!-- bench:start -->` and
 * `<!-- bench:end -->` (appended at the end when absent; nothing else in the file is touched).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { replaceReportSection } from "../packages/diff/src/evidence/reportSection.js"
import type { DifferResult } from "./differ.js"
import { renderEmulatorVsBare, type SideBySide } from "./emulator-vs-bare.js"
import type { EmulatorVsGateway, OpSide } from "./emulator-vs-gateway.js"
import type { ScaleResult } from "./scale.js"
import { renderStores, type StoresResult } from "./stores.js"
import type { SuitesResult } from "./suites.js"
import { fmt, fmtAuto, type Spread } from "./stats.js"

export const SCHEMA_VERSION = 2

export type SectionName = "gateway" | "bare" | "scale" | "stores" | "differ" | "suites"

export interface Machine {
  readonly cpus: number
  readonly cpuModel: string
  readonly memoryGiB: number
  readonly os: string
  readonly node: string
  /** 1, 5 and 15 minute load averages when the bench started and ended. */
  readonly loadAverageAtStart: ReadonlyArray<number>
  readonly loadAverageAtEnd: ReadonlyArray<number>
  readonly note: string
}

export interface SectionMeta {
  readonly measuredAt: string
  /** The commit measured (HEAD when the section ran); older sections name the commit that added their figures instead. */
  readonly commit?: string
  readonly committedIn?: string
  readonly quick: boolean
  readonly rounds: number
  readonly seconds: number
  readonly loadAverageBefore: ReadonlyArray<number>
  readonly loadAverageAfter: ReadonlyArray<number>
  readonly durationSeconds: number
  /** CPU ms of bench/calibration.ts' fixed loop as the section began and ended (absent in sections measured before the calibration loop existed). */
  readonly calibrationMs?: { readonly before: number; readonly after: number }
}

export interface BenchFile {
  readonly schemaVersion: number
  readonly measuredAt: string
  readonly command: string
  readonly machine: Machine
  readonly sectionMeta: Partial<Record<SectionName, SectionMeta>>
  readonly emulatorVsGateway?: EmulatorVsGateway
  readonly emulatorVsBare?: ReadonlyArray<SideBySide>
  readonly scale?: ScaleResult
  readonly stores?: StoresResult
  readonly differ?: DifferResult
  readonly suites?: SuitesResult
}

export type SectionKey = "emulatorVsGateway" | "emulatorVsBare" | "scale" | "stores" | "differ" | "suites"

export const SECTION_KEYS: Record<SectionName, SectionKey> = {
  gateway: "emulatorVsGateway",
  bare: "emulatorVsBare",
  scale: "scale",
  stores: "stores",
  differ: "differ",
  suites: "suites"
}

/** The previous file's sections, to keep those this run does not measure. */
export const readPrevious = (path: string): Partial<BenchFile> => {
  if (!existsSync(path)) return {}
  try {
    const old = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>
    if (old["schemaVersion"] === SCHEMA_VERSION) return old as Partial<BenchFile>
    // schema 1 held only emulatorVsBare, with its meta at the top level
    if (old["schemaVersion"] === 1 && Array.isArray(old["emulatorVsBare"])) {
      return {
        emulatorVsBare: old["emulatorVsBare"] as ReadonlyArray<SideBySide>,
        sectionMeta: {
          bare: {
            measuredAt: String(old["measuredAt"]),
            quick: false,
            rounds: Number(old["rounds"]),
            seconds: Number(old["seconds"]),
            loadAverageBefore: [],
            loadAverageAfter: [],
            durationSeconds: 0
          }
        }
      }
    }
  } catch {
    // unreadable: start over
  }
  return {}
}

const ms = (s: Spread | undefined) => (s === undefined ? "–" : fmtAuto(s))
const ratio = (x: number | null | undefined) => (x !== null && x !== undefined && Number.isFinite(x) ? `${fmt(x, x >= 10 ? 0 : 1)}×` : "**failed**")
const verdict = (ok: boolean) => (ok ? "met" : "**not met**")
const loads = (xs: ReadonlyArray<number>) => (xs.length === 0 ? "n/a" : xs.map((x) => x.toFixed(2)).join(" / "))

const metaLine = (m: SectionMeta | undefined) =>
  m === undefined
    ? ""
    : `_Measured ${m.measuredAt}${m.commit !== undefined ? ` on commit ${m.commit.slice(0, 12)}${m.commit.slice(40)}` : m.committedIn !== undefined ? ` (figures committed in ${m.committedIn}; the exact code measured was not recorded)` : " (commit not recorded)"}${m.quick ? " (--quick: indicative only)" : ""}; ${m.rounds} round(s) × ${m.seconds} s; load average (1/5/15 min) ${loads(m.loadAverageBefore)} before, ${loads(m.loadAverageAfter)} after` +
      (m.calibrationMs === undefined ? "" : `; machine speed: the fixed CPU loop of bench/calibration.ts took ${m.calibrationMs.before} ms before, ${m.calibrationMs.after} ms after (lower is faster)`) +
      "._\n\n"

const sideCell = (s: OpSide) => `${fmtAuto(s.acceptedRps)}`

export const renderGateway = (g: EmulatorVsGateway): string => {
  const lines = [
    `Real Hermes ${g.pin} gateway (oracle runner, ${g.launcher} launcher, its fake model playing the Script) against the emulator on the same pin and Script; ` +
      `${g.connections} concurrent connections/workers on both sides, loopback. Medians of ${g.rounds} round(s), (min–max).`,
    "",
    "| operation | emulator ok/s | gateway ok/s | emulator p50 / p99 ms | gateway p50 / p99 ms | emulator÷gateway throughput | target |",
    "| --- | --- | --- | --- | --- | --- | --- |"
  ]
  for (const r of g.rows) {
    // a side with no sample did not measure anything: the row says so instead of a ratio
    const failed = [r.emulator.samples === 0 ? "emulator" : "", r.gateway.samples === 0 ? "gateway" : ""].filter((x) => x !== "")
    if (failed.length > 0) {
      lines.push(`| ${r.name} | ${r.emulator.samples === 0 ? "**failed** (0 samples)" : sideCell(r.emulator)} | ${r.gateway.samples === 0 ? "**failed** (0 samples)" : sideCell(r.gateway)} | — | — | **failed**: no sample on the ${failed.join(" and ")} side | not measured |`)
      continue
    }
    const target = r.target === undefined ? "" : `≥ ${r.target}× — ${verdict(r.throughputRatio >= r.target)}`
    lines.push(
      `| ${r.name} | ${sideCell(r.emulator)} | ${sideCell(r.gateway)} | ${ms(r.emulator.p50Ms)} / ${ms(r.emulator.p99Ms)} | ${ms(r.gateway.p50Ms)} / ${ms(r.gateway.p99Ms)} | **${ratio(r.throughputRatio)}** | ${target} |`
    )
  }
  const stream = g.rows.find((r) => r.emulator.firstP50Ms !== undefined)
  if (stream !== undefined) {
    lines.push(
      "",
      `Streamed chat completion, time to the first content chunk p50 / p99 (ms): emulator ${ms(stream.emulator.firstP50Ms)} / ${ms(stream.emulator.firstP99Ms)}, ` +
        `gateway ${ms(stream.gateway.firstP50Ms)} / ${ms(stream.gateway.firstP99Ms)}; total time is the p50 / p99 column above.`
    )
  }
  const cpu = g.rows.filter((r) => r.emulator.cpuMicrosPerRequest !== undefined && r.gateway.cpuMicrosPerRequest !== undefined)
  if (cpu.length > 0) {
    lines.push(
      "",
      "Server CPU per answer (µs): " +
        cpu.map((r) => `${r.name}: emulator ${ms(r.emulator.cpuMicrosPerRequest)}, gateway ${ms(r.gateway.cpuMicrosPerRequest)}`).join("; ") +
        " (gateway from /proc, 10 ms ticks)."
    )
  }
  const run = g.rows.find((r) => r.name.startsWith("full run"))
  if (run?.emulator.requestsPerFlow !== undefined && run.gateway.requestsPerFlow !== undefined) {
    lines.push("", `A full run took ${fmt(run.emulator.requestsPerFlow.median, 1)} requests on the emulator and ${fmt(run.gateway.requestsPerFlow.median, 1)} on the gateway (POST + back-to-back polls).`)
  }
  if (g.coldStart !== undefined) {
    const c = g.coldStart
    lines.push(
      "",
      `Cold start to the first answer (${c.rounds} round(s)): emulator ${ms(c.emulatorMs)} ms, gateway ${ms(c.gatewayMs)} ms ` +
        `(the whole \`startGateway\`: ${ms(c.gatewayStartGatewayMs)} ms; of the emulator's time, its own start — layers and listen, as the CLI reports it — is ${ms(c.emulatorOwnStartMs)} ms, the rest is starting node and loading the emulator's code) — **${ratio(c.ratio)}** faster; target ≥ ${c.target}× — ${verdict(c.ratio >= c.target)}. How: ${c.how}.`
    )
  }
  for (const n of g.notes) lines.push("", `Note: ${n}`)
  return lines.join("\n")
}

export const renderScale = (s: ScaleResult): string => {
  const lines = [
    `Emulator ${s.pin}, file storage, N settled keyed runs. Seeding: ${s.seeding}`,
    "",
    "| runs stored | seed s | RSS MiB of the bundled CLI (empty process) | GET within the hour (settled status): req/s · p50 / p99 ms | first GET after the 1 h jump (starts the sweep) ms | sequential GETs while the sweep runs: count · p50 / longest ms | RSS after sweep MiB | GET, status from the ledger: req/s · p50 / p99 ms | keyed POST: req/s · p50 ms |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  ]
  for (const p of s.points) {
    const during = p.getsDuringSweep === undefined ? "not measured" : `${p.getsDuringSweep.count} · ${fmt(p.getsDuringSweep.p50Ms, 2)} / ${fmt(p.getsDuringSweep.maxMs, 1)}`
    lines.push(
      `| ${p.runs.toLocaleString("en-US")} | ${fmt(p.seedSeconds, 1)} | ${fmt(p.rssMiB)} (${fmt(p.rssEmptyMiB)}) | ${ms(p.getInMemory.rps)} · ${ms(p.getInMemory.p50Ms)} / ${ms(p.getInMemory.p99Ms)} | ${fmt(p.sweepingGetMs, 1)} | ${during} | ${fmt(p.rssAfterSweepMiB)} | ${ms(p.getFromLedger.rps)} · ${ms(p.getFromLedger.p50Ms)} / ${ms(p.getFromLedger.p99Ms)} | ${fmt(p.keyedPost.rps)} · ${fmt(p.keyedPost.p50Ms, 2)} |`
    )
  }
  const sideBySide = s.points.filter((p) => p.getSequential !== undefined)
  if (sideBySide.length > 0) {
    lines.push(
      "",
      "GET within the hour, side by side (every store served at once, their rounds interleaved): p50 one GET at a time, p50 and CPU per GET under the saturating load, and each as the median of the rounds' ratios to the smallest store.",
      "",
      "| runs stored | one at a time: p50 ms (× smallest) | saturating: p50 ms (× smallest) | CPU µs per GET (× smallest) |",
      "| --- | --- | --- | --- |",
      ...sideBySide.map((p) => {
        const x = (r: Spread | undefined) => (r === undefined ? "" : ` (×${fmt(r.median, 2)})`)
        return `| ${p.runs.toLocaleString("en-US")} | ${ms(p.getSequential?.p50Ms)}${x(p.toSmallest?.sequentialP50)} | ${ms(p.getInMemory.p50Ms)}${x(p.toSmallest?.saturatedP50)} | ${ms(p.getInMemory.cpuMicrosPerRequest)}${x(p.toSmallest?.cpuMicrosPerRequest)} |`
      })
    )
  }
  lines.push(
    "",
    `- ${s.latencyFlat.target}: largest rise ${fmt(s.latencyFlat.p50GrowthPercent, 1)} % (spread of all sizes' p50 ${fmt(s.latencyFlat.p50SpreadPercent, 1)} %) — ${verdict(s.latencyFlat.withinTarget)}.`,
    ...(s.latencyFlat.saturatedP50GrowthPercent === undefined
      ? []
      : [
        `- The same under the saturating load (p50 ≈ connections × the server's time per GET): largest rise ${fmt(s.latencyFlat.saturatedP50GrowthPercent, 1)} % — ${verdict(s.latencyFlat.saturatedWithinTarget === true)}; CPU per GET rose ${fmt(s.latencyFlat.cpuGrowthPercent ?? 0, 1)} %.`
      ]),
    `- ${s.rssAtLargest.target}: ${fmt(s.rssAtLargest.rssMiB)} MiB at ${s.rssAtLargest.runs.toLocaleString("en-US")} runs — ${verdict(s.rssAtLargest.withinTarget)}.`,
    "",
    "Retention sweep against the number of expired runs (in process, the emulator's own code; 1,000 live runs besides):",
    "",
    "| expired runs | settled-status sweep (features/runs/SettledRuns.ts sweepSettled) ms | ledger prune (features/runs/RunLedger.ts pruneExpired) ms |",
    "| --- | --- | --- |"
  )
  const first = s.points[0]
  if (first !== undefined && largest(s) !== undefined) {
    const last = largest(s) as (typeof s.points)[number]
    lines.splice(
      lines.findIndex((l) => l.startsWith("- RSS")) + 1,
      0,
      `- RSS grew ${fmt(last.rssMiB - first.rssMiB)} MiB from ${first.runs.toLocaleString("en-US")} to ${last.runs.toLocaleString("en-US")} runs; the empty emulator process (the bundled CLI) already holds ${fmt(first.rssEmptyMiB)}–${fmt(last.rssEmptyMiB)} MiB.`
    )
  }
  const warm = s.points.filter((p) => p.getWarmup !== undefined && p.getWarmup.length > 0)
  if (warm.length > 0) {
    lines.splice(
      lines.findIndex((l) => l.startsWith("Retention sweep")),
      0,
      "GET within the hour during the warm-up that precedes the measured rounds (the same at every size), µs of CPU per GET in each 1 s window: a freshly seeded store costs more at first.",
      "",
      ...warm.map((p) => `- ${p.runs.toLocaleString("en-US")} runs: ${(p.getWarmup ?? []).map((w) => fmt(w.cpuMicrosPerRequest)).join(" · ")}`),
      ""
    )
  }
  for (const p of s.sweep) lines.push(`| ${p.expired.toLocaleString("en-US")} | ${ms(p.statusSweepMs)} | ${ms(p.ledgerPruneMs)} |`)
  for (const n of s.notes) lines.push("", `Note: ${n}`)
  return lines.join("\n")
}

const largest = (s: ScaleResult) => s.points[s.points.length - 1]

export const renderDiffer = (d: DifferResult): string => {
  if (!d.measured) return `**TODO — not measured:** ${d.todo ?? "unknown reason"}`
  const lines: Array<string> = []
  if (d.generated !== undefined) {
    const g = d.generated
    lines.push(
      `Generated scenarios (\`oracle bench --runs ${g.scenarios} --seed ${g.seed} --pin ${d.pin}\`, ${fmt(g.stepsPerScenario, 1)} steps each), against the emulator in process: ` +
        `played ${ms(g.playedScenariosPerSecond)} scenarios/s (${ms(g.playedStepsPerSecond)} steps/s); compared emulator against emulator ${ms(g.comparedScenariosPerSecond)} scenarios/s.`
    )
  }
  if (d.cassettes !== undefined) {
    const c = d.cassettes
    lines.push(
      "",
      `Replaying the ${c.count} committed ${d.pin} cassettes of the strict profile (those \`oracle compare --target cassette\` plays by default) against the emulator (\`oracle compare --target cassette\`): ${ms(c.wallSeconds)} s from spawn to exit, ` +
        `of which the CLI's start (\`oracle --help\`) ${ms(c.cliStartSeconds)} s${c.reportedSeconds === undefined ? "" : `; the comparison itself ${ms(c.reportedSeconds)} s as the CLI reports it`} (${c.verdicts}).`
    )
  }
  return lines.join("\n")
}

const within = (value: number, target: number, unit: string) => `target ≤ ${target} ${unit} — ${verdict(value <= target)}`

export const renderSuites = (r: SuitesResult): string => {
  const perTest = (s: Spread) => fmt((s.median / r.tests) * 1000, 3)
  const c = r.coldStart
  const cold =
    c === undefined
      ? []
      : [
        `| cold start of the bundled CLI (\`node packages/emulator/dist/hermes-emulator-launcher.cjs serve\`, ${fmt(c.bundleBytes / 1024)} KiB, with its V8 code cache) to the first 200 of /health; node started without the variables it acts on before any script (NODE_EXTRA_CA_CERTS, NODE_OPTIONS, …) | ${ms(c.cliWallMs)} ms | ${ms(c.cliCpuMs)} ms | ${within(c.cliWallMs.median, 120, "ms")} |`,
        `| of which the CLI's own start (layers built, listening; its "ready in") | ${ms(c.cliOwnStartMs)} ms | | |`,
        ...(c.firstStart === undefined
          ? []
          : [`| the first start after the bundle was built, before its V8 code cache exists (not in the rounds above) | ${fmt(c.firstStart.wallMs)} ms | ${fmt(c.firstStart.cpuMs)} ms | — |`]),
        `| the same for an empty node:http server (node's own start on this machine at that time) | ${ms(c.emptyNodeWallMs)} ms | ${ms(c.emptyNodeCpuMs)} ms | — |`,
        ...(c.inheritedEnvironment === undefined
          ? []
          : [
            `| the bundled CLI again, in the same rounds, with ${c.inheritedEnvironment.variables.join(", ")} as the bench's shell sets it | ${ms(c.inheritedEnvironment.cliWallMs)} ms | ${ms(c.inheritedEnvironment.cliCpuMs)} ms | — |`,
            `| an empty node:http server with ${c.inheritedEnvironment.variables.join(", ")} as set (node's start in that shell) | ${ms(c.inheritedEnvironment.emptyNodeWallMs)} ms | ${ms(c.inheritedEnvironment.emptyNodeCpuMs)} ms | — |`
          ]),
        ...(c.loadAverage === undefined
          ? []
          : [`| load average (1 min, 2 cores) as the cold-start rounds began / ended | ${fmt(c.loadAverage.start, 2)} / ${fmt(c.loadAverage.end, 2)} | | |`])
      ]
  return [
    `A test here scripts one reply in its own namespace, asks one chat completion and checks its text (bench/suiteTest.ts).`,
    "",
    "| what | wall | CPU | target |",
    "| --- | --- | --- | --- |",
    ...cold,
    `| Emulator.layer start in process (services, storage opened and migrated, app) | ${ms(r.layerStartMs)} ms | | ${within(r.layerStartMs.median, 20, "ms")} |`,
    `| namespace reset after a test (POST /__admin/reset, in process) | ${ms(r.resetMs.wall)} ms | ${ms(r.resetMs.cpu)} ms | ${within(r.resetMs.wall.median, 0.2, "ms")} |`,
    `| a fresh namespace's first request (a Script upload, in process) | ${ms(r.freshNamespaceMs.wall)} ms | ${ms(r.freshNamespaceMs.cpu)} ms | ${within(r.freshNamespaceMs.wall.median, 0.2, "ms")} |`,
    `| ${r.tests.toLocaleString("en-US")} isolated tests in process (Layer + fetch) | ${ms(r.inProcessSeconds.wall)} s (${perTest(r.inProcessSeconds.wall)} ms/test) | ${ms(r.inProcessSeconds.cpu)} s | ${within(r.inProcessSeconds.wall.median, (0.4 * r.tests) / 1000, "s")} |`,
    `| the same over HTTP (emulator in its own process, keep-alive fetch) | ${ms(r.overHttpSeconds.wall)} s (${perTest(r.overHttpSeconds.wall)} ms/test) | | measured |`,
    `| vitest: ${r.parallel.files} files × ${r.parallel.testsPerFile} tests, ${r.parallel.workers} workers, one emulator (globalSetup) shared through namespaces | ${ms(r.parallel.withEmulatorSeconds)} s | | measured |`,
    `| the same files with tests that do nothing (vitest's own share) | ${ms(r.parallel.vitestAloneSeconds)} s | | — |`
  ].join("\n")
}

export const renderMarkdown = (f: BenchFile): string => {
  const m = f.machine
  const out = [
    "## Benchmarks",
    "",
    `Machine: ${m.cpus}× ${m.cpuModel}, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}. ${m.note} ` +
      `Load average (1/5/15 min) ${loads(m.loadAverageAtStart)} at the start, ${loads(m.loadAverageAtEnd)} at the end. ` +
      `Cells are medians of the rounds with (min–max). Written by \`${f.command}\`; raw numbers in evidence/bench.json (schema ${f.schemaVersion}).`,
    ""
  ]
  if (f.emulatorVsGateway !== undefined) out.push("### Emulator vs the real gateway", "", metaLine(f.sectionMeta.gateway) + renderGateway(f.emulatorVsGateway), "")
  if (f.emulatorVsBare !== undefined) {
    out.push(
      "### Emulator vs bare node:http + better-sqlite3 (target: within 2×)",
      "",
      metaLine(f.sectionMeta.bare) + renderEmulatorVsBare(f.emulatorVsBare),
      "",
      "The reference does the emulator's SQL per request (bench/servers/bare.ts): for GET of a settled run one SELECT of its stored status bytes from settled_runs (and the once-a-minute expiry DELETE); per run the 5-statement session/message transaction and the settled_runs write; for keyed runs the ledger admission (prune, lookup, insert) and two status writes.",
      ""
    )
  }
  if (f.scale !== undefined) out.push("### Scale", "", metaLine(f.sectionMeta.scale) + renderScale(f.scale), "")
  if (f.stores !== undefined) out.push("### Store growth (every route, small store vs large)", "", metaLine(f.sectionMeta.stores) + renderStores(f.stores), "")
  if (f.suites !== undefined) out.push("### What test suites feel", "", metaLine(f.sectionMeta.suites) + renderSuites(f.suites), "")
  if (f.differ !== undefined) out.push("### The differ", "", metaLine(f.sectionMeta.differ) + renderDiffer(f.differ), "")
  else out.push("### The differ", "", "**TODO — not measured** in this file (run `npm run bench -- --only differ`).", "")
  return out.join("\n")
}

/** Replaces the bench's marked section of the report (or appends it); nothing else changes. */
export const writeReportSection = (path: string, markdown: string): void => {
  const text = existsSync(path) ? readFileSync(path, "utf8") : ""
  writeFileSync(path, replaceReportSection(text, "bench", markdown))
}
