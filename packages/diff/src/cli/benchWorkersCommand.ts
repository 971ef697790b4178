/**
 * `oracle bench --target process --workers 1,2,4`: reference scenarios per second for each worker
 * count, measured one after another in one run on the same scenario set (the scenario files plus
 * `--runs` generated ones, noise learned as `compare` does), with the load average around each,
 * since this machine's cores are shared, and where the CPU went (cpuAccount.ts): the runner, its
 * gateways, and the whole machine. Written as JSON (default evidence/campaigns/workers-bench.json);
 * each point's evidence goes to a temp directory whose path is printed.
 */
import { FileSystem } from "@effect/platform"
import { cpus, loadavg, tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { Effect } from "effect"
import { compareAll } from "../compare/compareAll.js"
import { scenarioSet } from "../compare/scenarioSet.js"
import { loadRegister } from "../diff/DivergenceRegister.js"
import { repoRoot } from "../evidence/provenance.js"
import { generateScenarios } from "../generate/generateScenarios.js"
import { writeReportSection } from "../evidence/reportSection.js"
import { writeEvidence } from "../evidence/writeEvidence.js"
import { renderWorkersSection, WORKERS_SECTION } from "../evidence/workersSection.js"
import { LearnedNoise } from "../noise/LearnedNoise.js"
import { intFlag, type ParsedArgs, pinOf } from "./args.js"
import { UsageError } from "./CliError.js"
import type { CommandResult } from "./OracleDocument.js"
import { loadScenarioFiles } from "./loadInputs.js"
import { type CpuUse, cpuBetween, sampleCpu } from "./cpuAccount.js"
import { progress } from "./progress.js"
import { provenanceFor } from "./provenanceFor.js"
import { startWorkers } from "./startWorkers.js"

export interface WorkersBenchPoint {
  readonly workers: number
  readonly scenarios: number
  readonly divergent: number
  readonly errors: number
  readonly startSeconds: number
  readonly wallSeconds: number
  readonly scenariosPerSecond: number
  readonly loadAverageBefore: ReadonlyArray<number>
  readonly loadAverageAfter: ReadonlyArray<number>
  /** CPU over the whole point, gateway start and stop included. */
  readonly cpu: CpuUse
  /** (runner + gateway CPU) / scenarios. */
  readonly cpuSecondsPerScenario: number
  /** The scenarios/s this CPU cost would allow if every core were the benchmark's: cpus / cpuSecondsPerScenario. */
  readonly cpuBoundScenariosPerSecond: number
}

const load = () => loadavg().map((n) => Math.round(n * 100) / 100)

export const benchWorkersCommand = (args: ParsedArgs, kind: "process" | "container") =>
  Effect.gen(function*() {
    const pin = yield* pinOf(args)
    const counts = (args.values.workers ?? "1,2,4").split(",").map((w) => Number(w.trim()))
    if (counts.some((n) => !Number.isInteger(n) || n < 1 || n > 16)) return yield* new UsageError({ command: "bench", message: `--workers wants a list like 1,2,4, got ${args.values.workers}` })
    const runs = yield* intFlag(args, "runs", 20)
    const seed = yield* intFlag(args, "seed", 1)
    const out = args.values.out ?? join(repoRoot(), "evidence", "campaign", "workers-bench.json")
    const register = yield* loadRegister()
    const set = scenarioSet([...(yield* loadScenarioFiles(args.values.scenario ?? [])), ...generateScenarios({ seed, count: runs, pin }).map((scenario) => ({ scenario }))])
    const provenance = yield* provenanceFor(pin, kind, true, runs, seed)
    const points: Array<WorkersBenchPoint> = []
    const evidenceDir = join(tmpdir(), `hermetic-workers-bench-${process.pid}`)
    for (const n of counts) {
      const before = load()
      const cpuBefore = sampleCpu()
      const t0 = performance.now()
      const evidence = yield* Effect.scoped(
        Effect.gen(function*() {
          const [main, ...more] = yield* startWorkers(pin, kind, n, args.values.source)
          const started = (performance.now() - t0) / 1000
          progress(`${n} worker(s) up in ${started.toFixed(1)} s; playing ${set.length} scenarios`)
          const result = yield* compareAll({ ...main, moreWorkers: more, scenarios: set, register, noise: new LearnedNoise(), noiseMethod: "two real runs", provenance })
          return { evidence: result.evidence, started }
        })
      )
      const cpu = cpuBetween(cpuBefore, sampleCpu())
      yield* writeEvidence(evidence.evidence, join(evidenceDir, `workers-${n}`))
      for (const c of evidence.evidence.scenarios) if (c.verdict === "divergent" || c.error !== undefined) progress(`workers ${n}: ${c.verdict} ${c.name}${c.error !== undefined ? ` — ${c.error}` : ""}`)
      const s = evidence.evidence.summary
      const perScenario = s.scenarios === 0 ? 0 : (cpu.runnerSeconds + cpu.gatewaySeconds) / s.scenarios
      const point: WorkersBenchPoint = {
        workers: n,
        scenarios: s.scenarios,
        divergent: s.divergent,
        errors: s.errors,
        startSeconds: Math.round(evidence.started * 10) / 10,
        wallSeconds: s.wallSeconds ?? 0,
        scenariosPerSecond: s.throughput ?? 0,
        loadAverageBefore: before,
        loadAverageAfter: load(),
        cpu,
        cpuSecondsPerScenario: Math.round(perScenario * 1000) / 1000,
        cpuBoundScenariosPerSecond: perScenario === 0 ? 0 : Math.round((cpu.cpus / perScenario) * 100) / 100
      }
      points.push(point)
      progress(
        `workers ${n}: ${point.scenariosPerSecond} scenarios/s (${point.scenarios} in ${point.wallSeconds} s; ${point.divergent} divergent, ${point.errors} errors; load ${before.join(" ")} → ${point.loadAverageAfter.join(" ")}; ` +
          `CPU s: runner ${cpu.runnerSeconds}, gateways ${cpu.gatewaySeconds}${cpu.gatewaySecondsComplete ? "" : "+"}, machine ${cpu.machineBusy === null ? "?" : Math.round(cpu.machineBusy * 100)} % busy; evidence ${join(evidenceDir, `workers-${n}`)})`
      )
    }
    const result = {
      schema: "hermetic/workers-bench",
      measuredAt: new Date().toISOString(),
      command: provenance.command,
      pin,
      launcher: kind,
      seed,
      runs,
      noise: "each scenario played twice on the real gateway, as oracle compare does",
      machine: { cpus: cpus().length, node: process.version, note: "shared machine: other work shows in the load average around each point" },
      points
    }
    const fs = yield* FileSystem.FileSystem
    yield* fs.makeDirectory(dirname(out), { recursive: true })
    yield* fs.writeFileString(out, `${JSON.stringify(result, null, 2)}\n`)
    // the REPORT.md beside it gets its workers section (kept when the evidence there is rewritten)
    const section = renderWorkersSection(result)
    if (section !== undefined) yield* writeReportSection(join(dirname(out), "REPORT.md"), WORKERS_SECTION, section)
    const base = points[0]?.scenariosPerSecond ?? 0
    const text = [
        "workers  scenarios  wall s  scenarios/s  speed-up  CPU s/scenario  machine busy  load before → after",
        ...points.map((p) =>
          `${String(p.workers).padStart(7)}  ${String(p.scenarios).padStart(9)}  ${p.wallSeconds.toFixed(1).padStart(6)}  ${String(p.scenariosPerSecond).padStart(11)}  ${(base === 0 ? 0 : p.scenariosPerSecond / base).toFixed(2).padStart(8)}  ${p.cpuSecondsPerScenario.toFixed(2).padStart(14)}  ${(p.cpu.machineBusy === null ? "?" : `${Math.round(p.cpu.machineBusy * 100)} %`).padStart(12)}  ${p.loadAverageBefore.join(" ")} → ${p.loadAverageAfter.join(" ")}`
        ),
        `written: ${out}`,
        ""
      ].join("\n")
    const exitCode = points.some((p) => p.errors > 0) ? (2 as const) : points.some((p) => p.divergent > 0) ? (1 as const) : (0 as const)
    return { exitCode, text, document: { command: "bench-workers", exitCode, written: out, points } } satisfies CommandResult
  })
