/**
 * One Scenario, compared: played on the reference (the real gateway or its cassette) — twice when
 * noise is being learned — and on the candidate (the emulator), then judged (judgeRuns.ts):
 * normalized, diffed, and every difference classified as a divergence, learned noise, or a
 * registered divergence with a reason.
 */
import { Effect } from "effect"
import { diffRuns } from "../diff/diffRuns.js"
import { normalizeRun } from "../normalize/normalizeRun.js"
import { runScenario } from "../runner/runScenario.js"
import type { Scenario } from "../scenario/Scenario.js"
import type { Target, TargetError } from "../target/Target.js"
import { type CompareSettings, errorComparison, judgeRuns, type ScenarioComparison } from "./judgeRuns.js"

export { classify, type CompareSettings, type ScenarioComparison } from "./judgeRuns.js"

export const compareScenario = (
  reference: Target,
  candidate: Target,
  scenario: Scenario,
  settings: CompareSettings,
  file?: string,
  /** Plays the reference's second run for noise learning (a cassette's second recording); the reference itself when absent. */
  secondReference: Target = reference
): Effect.Effect<ScenarioComparison> =>
  Effect.gen(function*() {
    const clock = reference.info.clock === "pinned" && candidate.info.clock === "pinned" ? "pinned" : "running"
    const refRun = yield* runScenario(reference, scenario)
    // normalized once: the same reference run is diffed against its second run and against the candidate
    const refNorm = normalizeRun(refRun, scenario, { clock })
    if (settings.noise !== undefined) {
      const again = yield* runScenario(secondReference, scenario)
      settings.noise.learn(scenario.name, diffRuns(refNorm, normalizeRun(again, scenario, { clock })))
    }
    const candRun = yield* runScenario(candidate, scenario)
    return judgeRuns(refRun, candRun, scenario, settings, { clock, referenceNormalized: refNorm, ...(file !== undefined ? { file } : {}) })
  }).pipe(Effect.catchAll((e: TargetError) => Effect.succeed(errorComparison(scenario, file, e.message))))
