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
 */
import { execFileSync, spawnSync } from "node:child_process"
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { parseArgs } from "node:util"
import { measureRunMeta, RUN_META, type RunMeta, writeMutationEvidence } from "./mutationReport.js"
import { sampleLines } from "./sampleLines.js"

const { values } = parseArgs({
  options: {
    sample: { type: "string" },
    seed: { type: "string", default: "26" },
    concurrency: { type: "string" },
    out: { type: "string", default: "evidence/mutation" },
    "report-only": { type: "boolean", default: false }
  }
})
const env: NodeJS.ProcessEnv = { ...process.env }
let sample: { lines: number; seed: number; codeLines: number } | undefined
let ranges: ReadonlyArray<string> | undefined
if (values.sample !== undefined) {
  const drawn = sampleLines(process.cwd(), Number(values.sample), Number(values.seed))
  sample = { lines: drawn.ranges.length, seed: drawn.seed, codeLines: drawn.codeLines }
  ranges = drawn.ranges
  env["HERMETIC_MUTATE"] = drawn.ranges.join(",")
  process.stderr.write(`mutation: ${drawn.ranges.length} lines drawn from ${drawn.codeLines} code lines (seed ${drawn.seed})\n`)
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

let meta: RunMeta
if (values["report-only"] !== true) {
  const stryker = spawnSync("npx", ["stryker", "run", "stryker.config.mjs"], { stdio: "inherit", env })
  restoreExecutableBits()
  if (stryker.status !== 0) {
    process.stderr.write(`mutation: StrykerJS exited ${stryker.status ?? stryker.signal}: no score written\n`)
    process.exit(2)
  }
  // the run's own moment, commit and load: --report-only later writes these, not its own
  meta = measureRunMeta()
  writeFileSync(RUN_META, `${JSON.stringify(meta, null, 2)}\n`)
} else if (existsSync(RUN_META)) {
  meta = JSON.parse(readFileSync(RUN_META, "utf8")) as RunMeta
} else {
  process.stderr.write(`mutation: --report-only needs ${RUN_META}, written by a Stryker run in this checkout\n`)
  process.exit(2)
}
process.stdout.write(`${writeMutationEvidence({ report: "reports/mutation/mutation.json", out: values.out, meta, sample, ...(ranges !== undefined ? { ranges } : {}) })}\n`)
