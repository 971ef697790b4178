/**
 * `npm run mutation`: StrykerJS over the emulator's behaviour code (stryker.config.mjs; incremental,
 * so a second run re-tests only mutants whose code or covering tests changed), then the evidence
 * (mutationReport.ts). `--sample N [--seed S]` mutates only the lines of a seeded random sample
 * (sampleLines.ts) and reports the score as an estimate — the whole scope is ~12,000 mutants, hours
 * on two cores, which is what the nightly workflow runs. `--concurrency C` sets Stryker's runners.
 *
 *   npm run mutation                         the whole scope (nightly)
 *   npm run mutation -- --sample 200 --seed 26
 *   npm run mutation -- --sample 200 --seed 26 --report-only   the evidence again from the last report
 *                                            (after editing the equivalent or pin-only lists)
 *   npm run mutation -- --lines L.json --carried-from "the seed-26 draw"   the lines a JSON array of
 *                                            `file:N-N` names (an earlier draw's, carried onto later code)
 *
 * After the run, two statuses are settled by running those mutants again (recheck.ts): the ones
 * that timed out, alone with a longer timeout (a Timeout on a loaded machine is not a detection;
 * `--no-recheck-timeouts` skips it), and, on a sample, the survivors against the whole suite
 * (per-test coverage can miss the test that would notice; `--no-recheck-survivors` skips it, and
 * `--recheck-survivors` asks for it on the whole scope, where it costs hours). `--recheck-only`
 * does what the last run's meta does not hold yet.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { chmodSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { parseArgs } from "node:util"
import { measureRunMeta, type MutationSummary, RUN_META, type RunMeta, writeMutationEvidence } from "./mutationReport.js"
import { sampleLines } from "./sampleLines.js"
import { applyRecheck, placesOf, type Recheck, type RecheckedStatus } from "./recheck.js"

const { values } = parseArgs({
  options: {
    sample: { type: "string" },
    lines: { type: "string" },
    "carried-from": { type: "string" },
    seed: { type: "string", default: "26" },
    concurrency: { type: "string" },
    out: { type: "string", default: "evidence/mutation" },
    "report-only": { type: "boolean", default: false },
    "recheck-timeouts": { type: "boolean", default: true },
    "recheck-survivors": { type: "boolean" },
    "recheck-only": { type: "boolean", default: false },
    "recheck-timeout-ms": { type: "string", default: "60000" }
  },
  allowNegative: true
})
const env: NodeJS.ProcessEnv = { ...process.env }
let sample: MutationSummary["sample"]
let ranges: ReadonlyArray<string> | undefined
if (values.sample !== undefined) {
  const drawn = sampleLines(process.cwd(), Number(values.sample), Number(values.seed))
  sample = { lines: drawn.ranges.length, seed: drawn.seed, codeLines: drawn.codeLines }
  ranges = drawn.ranges
  env["HERMETIC_MUTATE"] = drawn.ranges.join(",")
  process.stderr.write(`mutation: ${drawn.ranges.length} lines drawn from ${drawn.codeLines} code lines (seed ${drawn.seed})\n`)
}
if (values.lines !== undefined) {
  // an earlier draw's lines on this commit's code: the same mutants where the code did not change
  const carried = JSON.parse(readFileSync(values.lines, "utf8")) as ReadonlyArray<string>
  const { codeLines } = sampleLines(process.cwd(), 0, Number(values.seed))
  sample = { lines: carried.length, seed: Number(values.seed), codeLines, carriedFrom: values["carried-from"] ?? values.lines }
  ranges = carried
  env["HERMETIC_MUTATE"] = carried.join(",")
  process.stderr.write(`mutation: the ${carried.length} lines of ${sample.carriedFrom}\n`)
}
if (values.concurrency !== undefined) env["HERMETIC_MUTATION_CONCURRENCY"] = values.concurrency
/**
 * In place, StrykerJS writes every file back from its backup when it ends, without the executable
 * bit: the packages' bin scripts would no longer start. Git knows which files are executable.
 */
const restoreExecutableBits = (): void => {
  for (const line of execFileSync("git", ["ls-files", "-s"], { encoding: "utf8" }).split("\n")) {
    const [mode, , , path] = line.split(/\s+/)
    if (mode === "100755" && path !== undefined && existsSync(path) && (statSync(path).mode & 0o111) === 0) chmodSync(path, 0o755)
  }
}

const REPORT = "reports/mutation/mutation.json"

const stryker = (runEnv: NodeJS.ProcessEnv): void => {
  const run = spawnSync("npx", ["stryker", "run", "stryker.config.mjs"], { stdio: "inherit", env: runEnv })
  restoreExecutableBits()
  if (run.status !== 0) {
    process.stderr.write(`mutation: StrykerJS exited ${run.status ?? run.signal}: no score written\n`)
    process.exit(2)
  }
}

/** Runs the mutants of one status again (their places, as `second` sets Stryker up) and folds the statuses into the report. */
const recheck = (of: RecheckedStatus, how: string, second: NodeJS.ProcessEnv): Recheck | undefined => {
  const first = JSON.parse(readFileSync(REPORT, "utf8")) as Parameters<typeof placesOf>[0]
  const places = placesOf(first, of)
  if (places.length === 0) return undefined
  const report = `reports/mutation/recheck-${of}.json`
  const incremental = `reports/mutation/recheck-${of}-incremental.json`
  rmSync(incremental, { force: true })
  process.stderr.write(`mutation: running the ${places.length} ${of} mutants again (${how})\n`)
  stryker({ ...env, ...second, HERMETIC_MUTATE: places.join(","), HERMETIC_MUTATION_INCREMENTAL: incremental, HERMETIC_MUTATION_REPORT: report })
  const settled = applyRecheck(first, JSON.parse(readFileSync(report, "utf8")) as typeof first, of, how)
  writeFileSync(REPORT, JSON.stringify(settled.report))
  return settled.recheck
}

/** The rechecks asked for that `done` does not hold yet, run in order: timeouts first, then survivors. */
const rechecks = (done: ReadonlyArray<Recheck>): ReadonlyArray<Recheck> => {
  const out = [...done]
  const has = (of: RecheckedStatus) => done.some((r) => r.of === of)
  if (values["recheck-timeouts"] === true && !has("Timeout")) {
    const timeoutMs = Number(values["recheck-timeout-ms"])
    const r = recheck("Timeout", `alone, one runner, ${timeoutMs / 1000} s timeout`, {
      HERMETIC_MUTATION_CONCURRENCY: "1",
      HERMETIC_MUTATION_TIMEOUT_MS: String(timeoutMs)
    })
    if (r !== undefined) out.push(r)
  }
  if ((values["recheck-survivors"] ?? sample !== undefined) && !has("Survived")) {
    const r = recheck("Survived", "against the whole suite, coverageAnalysis all", { HERMETIC_MUTATION_COVERAGE: "all" })
    if (r !== undefined) out.push(r)
  }
  return out
}

const lastRunMeta = (): RunMeta => {
  if (existsSync(RUN_META)) return JSON.parse(readFileSync(RUN_META, "utf8")) as RunMeta
  process.stderr.write(`mutation: --report-only and --recheck-only need ${RUN_META}, written by a Stryker run in this checkout\n`)
  return process.exit(2)
}

const withRechecks = (measured: RunMeta): RunMeta => {
  const all = rechecks(measured.rechecks ?? [])
  const meta = all.length === 0 ? measured : { ...measured, rechecks: all }
  writeFileSync(RUN_META, `${JSON.stringify(meta, null, 2)}\n`)
  return meta
}

let meta: RunMeta
if (values["recheck-only"] === true) meta = withRechecks(lastRunMeta())
else if (values["report-only"] !== true) {
  stryker(env)
  // the run's own moment, commit and load: --report-only later writes these, not its own; written
  // before the rechecks, so a recheck that fails can be run again with --recheck-only
  const measured = measureRunMeta()
  writeFileSync(RUN_META, `${JSON.stringify(measured, null, 2)}\n`)
  meta = withRechecks(measured)
} else meta = lastRunMeta()
process.stdout.write(`${writeMutationEvidence({ report: REPORT, out: values.out, meta, sample, ...(ranges !== undefined ? { ranges } : {}) })}\n`)
