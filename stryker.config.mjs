// @ts-check
import { behaviourGlobs } from "./tools/mutation/scope.ts"
/**
 * The mutation score of the emulator's behaviour code against the recorded evidence: StrykerJS
 * changes one piece of the emulator at a time (a condition, an operator, a literal, a removed
 * block) and runs the suite of vitest.mutation.config.ts — the replays of what the real gateway
 * answered. A mutant that suite does not notice is a wrong emulator the evidence would let through.
 * `npm run mutation` (tools/mutation/run.ts) runs it and writes evidence/mutation/; it is
 * incremental (reports/mutation/incremental.json keeps the results of code and tests that did not
 * change); HERMETIC_MUTATE narrows the files (a comma-separated list of globs or file:line ranges).
 * HERMETIC_MUTATION_TIMEOUT_MS, _COVERAGE, _INCREMENTAL and _REPORT let run.ts run timed-out and
 * surviving mutants again apart (tools/mutation/recheck.ts) without touching the main run's files.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
const BEHAVIOUR = behaviourGlobs()
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts" },
  mutate: process.env.HERMETIC_MUTATE ? process.env.HERMETIC_MUTATE.split(",") : BEHAVIOUR,
  coverageAnalysis: process.env.HERMETIC_MUTATION_COVERAGE ?? "perTest",
  incremental: true,
  incrementalFile: process.env.HERMETIC_MUTATION_INCREMENTAL ?? "reports/mutation/incremental.json",
  concurrency: Number(process.env.HERMETIC_MUTATION_CONCURRENCY ?? 2),
  timeoutMS: Number(process.env.HERMETIC_MUTATION_TIMEOUT_MS ?? 20000),
  // the first run collects per-test coverage of the whole suite: minutes on a busy 2-core machine
  dryRunTimeoutMinutes: 20,
  reporters: process.env.HERMETIC_MUTATION_REPORT ? ["progress", "json"] : ["clear-text", "progress", "json", "html"],
  jsonReporter: { fileName: process.env.HERMETIC_MUTATION_REPORT ?? "reports/mutation/mutation.json" },
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  thresholds: { high: 85, low: 70, break: null },
  // in place: the workspace packages resolve each other through node_modules links into packages/,
  // so a sandbox copy would test the diff package against the unmutated emulator
  inPlace: true
}
