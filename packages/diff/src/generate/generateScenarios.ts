/** N scenarios sampled from a seed: what `oracle compare --runs N --seed S` plays (reproducible from the seed). */
import * as fc from "fast-check"
import type { Scenario } from "../scenario/Scenario.js"
import { buildScenario, commandsArbitrary, type GeneratorOptions } from "./scenarioArbitrary.js"

export const generateScenarios = (options: GeneratorOptions & { readonly seed: number; readonly count: number }): Array<Scenario> =>
  fc
    .sample(commandsArbitrary(options), { seed: options.seed, numRuns: options.count * 2 })
    .map((commands, i) => buildScenario(commands, options.pin, `(#${i + 1})`, { seed: options.seed, path: String(i) }, options.profile))
    // an empty command list says nothing; the sample is twice as large so N remain
    .filter((s) => s.steps.length > 0)
    .slice(0, options.count)
