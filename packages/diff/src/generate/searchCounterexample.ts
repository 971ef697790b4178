/**
 * Property: every generated scenario compares without divergence. On a failure fast-check shrinks
 * the command sequence; the smallest failing Scenario is written to <out>/counterexamples/ with its
 * seed and path, replayable with `oracle replay FILE --target …`.
 */
import { join } from "node:path"
import { FileSystem } from "@effect/platform"
import { Effect, Runtime } from "effect"
import * as fc from "fast-check"
import { cassetteSlug } from "../cassette/Cassette.js"
import type { ScenarioComparison } from "../compare/compareScenario.js"
import type { Scenario } from "../scenario/Scenario.js"
import { encodeScenario } from "../scenario/ScenarioFile.js"
import type { GenCommand } from "./operations/Operation.js"
import { buildFromList, commandsArbitrary, type GeneratorOptions } from "./scenarioArbitrary.js"

export interface SearchOptions extends GeneratorOptions {
  readonly seed: number
  readonly numRuns: number
  /** Start at this run of the seed (a generated scenario's `origin.path`) and shrink the failure found there. */
  readonly path?: string
  /** Compares one scenario on both targets. */
  readonly compare: (scenario: Scenario) => Effect.Effect<ScenarioComparison>
  /** Directory that receives counterexamples/ (none written when absent). */
  readonly out?: string
  readonly progress?: (line: string) => void
}

export interface SearchResult {
  readonly seed: number
  /** Scenarios compared before the first failure (or all of them). */
  readonly compared: ReadonlyArray<ScenarioComparison>
  readonly failure?: {
    readonly path: string
    readonly scenario: Scenario
    readonly comparison: ScenarioComparison
    readonly shrinks: number
    readonly file?: string
  }
}

const divergent = (c: ScenarioComparison) => c.evidence.verdict === "divergent" || c.evidence.verdict === "error"

/**
 * fast-check drives the search and wants a Promise per property run: `compare` runs on the
 * caller's runtime there (the library's edge), and the search as a whole is one Effect.
 */
export const searchCounterexample = (options: SearchOptions): Effect.Effect<SearchResult, never, FileSystem.FileSystem> => Effect.gen(function*() {
  const runtime = yield* Effect.runtime<never>()
  const compare = (scenario: Scenario) => Runtime.runPromise(runtime)(options.compare(scenario))
  const compared: Array<ScenarioComparison> = []
  let failing: { scenario: Scenario; comparison: ScenarioComparison; commands: ReadonlyArray<GenCommand> } | undefined
  let evaluations = 0
  const details = yield* Effect.promise(() => fc.check(
    fc.asyncProperty(commandsArbitrary(options), async (commands) => {
      // an empty scenario says nothing; fast-check draws another instead of counting it
      fc.pre(buildFromList([...commands], options.pin, "", { seed: options.seed }, options.profile).scenario.steps.length > 0)
      evaluations++
      const { scenario, executed } = buildFromList([...commands], options.pin, `(#${evaluations})`, { seed: options.seed }, options.profile)
      const comparison = await compare(scenario)
      if (failing === undefined) {
        compared.push(comparison)
        options.progress?.(`generated #${evaluations}: ${comparison.evidence.verdict} (${scenario.steps.length} steps)`)
      }
      if (divergent(comparison)) {
        if (failing === undefined) options.progress?.("divergence found; shrinking…")
        failing = { scenario, comparison, commands: executed }
        return false
      }
      return true
    }),
    { seed: options.seed, numRuns: options.numRuns, endOnFailure: false, ...(options.path !== undefined ? { path: options.path } : {}) }
  ))
  if (!details.failed || failing === undefined || details.counterexamplePath === null) return { seed: options.seed, compared }
  // fast-check drops commands from the front; a last pass removes any single command that is not needed (1-minimal)
  let best = failing
  let removed = 0
  for (let i = best.commands.length - 1; i >= 0; i--) {
    const fewer = best.commands.filter((_, k) => k !== i)
    const { scenario, executed } = buildFromList(fewer, options.pin, "(shrunk)", { seed: options.seed }, options.profile)
    if (scenario.steps.length === 0) continue
    const comparison = yield* options.compare(scenario)
    if (divergent(comparison)) {
      best = { scenario, comparison, commands: executed }
      removed++
      i = Math.min(i, best.commands.length)
    }
  }
  const path = details.counterexamplePath + (removed > 0 ? ` (then ${removed} command(s) removed)` : "")
  failing = best
  const scenario: Scenario = {
    ...failing.scenario,
    name: `counterexample: ${failing.scenario.name}`,
    origin: { ...failing.scenario.origin, seed: options.seed, path }
  }
  let file: string | undefined
  if (options.out !== undefined) {
    const dir = join(options.out, "counterexamples")
    const fs = yield* FileSystem.FileSystem
    yield* Effect.orDie(fs.makeDirectory(dir, { recursive: true }))
    file = join(dir, `${cassetteSlug(`${options.pin} seed ${options.seed} path ${details.counterexamplePath}`)}.json`)
    yield* Effect.orDie(fs.writeFileString(file, encodeScenario(scenario)))
  }
  return {
    seed: options.seed,
    compared,
    failure: { path, scenario, comparison: { ...failing.comparison, evidence: { ...failing.comparison.evidence, name: scenario.name } }, shrinks: details.numShrinks, ...(file !== undefined ? { file } : {}) }
  }
})
