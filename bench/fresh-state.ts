/**
 * Wall time of `oracle compare` on the real gateway, per way of giving scenarios their state, on
 * one scenario set (the built-in scenario files plus --runs generated from --seed) and one worker
 * count: shared (one gateway per worker, `--shared`), fresh by process (a new interpreter per play,
 * HERMETIC_FRESH_STARTER=process) and fresh by fork (the default). The modes run one after another,
 * in the order given, so a loaded machine weighs on all of them; run it twice in opposite orders to
 * see how much the load moved. docs/fresh-state.md holds the table this prints.
 *
 *   node --import tsx bench/fresh-state.ts [--runs 40] [--seed 2701] [--workers 1] [--files N] [--modes shared,fork,process] [--baseline DIR] [--timeout 1800]
 *
 * --files N plays only the first N built-in scenario files (sorted by name) instead of all of them.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"

const MODES = {
  shared: { flags: ["--shared"], env: {} },
  // the shared gateway as it was before the state check (a checkout given by --baseline, e.g. main
  // before fresh became the default): a play that leaves state behind is not cut short there
  baseline: { flags: [], env: {} },
  fork: { flags: [], env: { HERMETIC_FRESH_STARTER: "fork" } },
  process: { flags: [], env: { HERMETIC_FRESH_STARTER: "process" } }
} as const
type Mode = keyof typeof MODES
const isMode = (m: string): m is Mode => m in MODES

const { values } = parseArgs({
  options: { runs: { type: "string" }, seed: { type: "string" }, workers: { type: "string" }, files: { type: "string" }, baseline: { type: "string" }, modes: { type: "string" }, timeout: { type: "string" } }
})
const runs = values.runs ?? "40"
const seed = values.seed ?? "2701"
const workers = values.workers ?? "1"
const timeoutS = Number(values.timeout ?? "1800")
const SCENARIO_DIR = "packages/diff/scenarios"
const files = values.files === undefined ? [] : readdirSync(SCENARIO_DIR).filter((f) => f.endsWith(".json")).sort().slice(0, Number(values.files))
const modes = (values.modes ?? "shared,fork,process").split(",").filter(isMode)

interface Row {
  readonly mode: Mode
  readonly exitCode: number | null
  readonly wallS: number
  readonly scenarios: number
  readonly verdicts: string
}

const rows: Array<Row> = []
for (const mode of modes) {
  const out = mkdtempSync(join(tmpdir(), "hermetic-bench-fresh-"))
  const t0 = performance.now()
  const root = mode === "baseline" ? (values.baseline ?? ".") : "."
  const r = spawnSync(
    process.execPath,
    ["--conditions=@hermetic/source", "--import", "tsx", join(root, "packages/diff/src/cli/main.ts"), "compare", "--runs", runs, "--seed", seed, "--workers", workers, "--no-shrink", "--out", out, ...files.flatMap((f) => ["--scenario", join(process.cwd(), SCENARIO_DIR, f)]), ...MODES[mode].flags],
    { cwd: root, env: { ...process.env, ...MODES[mode].env }, encoding: "utf8", timeout: timeoutS * 1000, killSignal: "SIGINT", maxBuffer: 64 * 1024 * 1024 }
  )
  const wallS = (performance.now() - t0) / 1000
  const summary = (r.stdout ?? "").split("\n").find((l) => /^\d+ scenarios: /.test(l)) ?? "(no summary)"
  let scenarios = 0
  try {
    const evidence = JSON.parse(readFileSync(join(out, "0.19.0-gateway-process-vs-emulator-inprocess.json"), "utf8")) as { scenarios?: ReadonlyArray<{ name?: string; error?: string }> }
    scenarios = evidence.scenarios?.length ?? 0
    // an error is worth its text here: the run's evidence goes with its temp dir
    for (const s of evidence.scenarios ?? []) if (s.error !== undefined) process.stderr.write(`[fresh-state] ${mode}: error in ${String(s.name)}: ${s.error}\n`)
  } catch {
    scenarios = Number(/^(\d+) scenarios/.exec(summary)?.[1] ?? "0")
  }
  rmSync(out, { recursive: true, force: true })
  rows.push({ mode, exitCode: r.status, wallS, scenarios, verdicts: summary.replace(/ · .*/, "") })
  process.stderr.write(`[fresh-state] ${mode}: ${wallS.toFixed(1)} s, exit ${String(r.status)}, ${summary}\n`)
}

const shared = rows.find((r) => r.mode === "baseline") ?? rows.find((r) => r.mode === "shared")
process.stdout.write(`${files.length > 0 ? `${files.length} scenario files, ` : "all scenario files, "}runs ${runs}, seed ${seed}, workers ${workers}, load average at the end ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}\n\n`)
process.stdout.write(`| mode | wall s | scenarios | s per scenario | × ${shared?.mode ?? "shared"} | exit | verdicts |\n|---|---|---|---|---|---|---|\n`)
for (const r of rows) {
  const per = r.scenarios > 0 ? (r.wallS / r.scenarios).toFixed(2) : "–"
  const ratio = shared !== undefined ? (r.wallS / shared.wallS).toFixed(2) : "–"
  process.stdout.write(`| ${r.mode} | ${r.wallS.toFixed(1)} | ${r.scenarios} | ${per} | ${ratio} | ${String(r.exitCode)} | ${r.verdicts} |\n`)
}
