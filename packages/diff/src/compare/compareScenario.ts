/**
 * One Scenario, compared: played on the reference (the real gateway or its cassette) — twice when
 * noise is being learned — and on the candidate (the emulator), normalized, diffed, and every
 * difference classified as a divergence, learned noise, or a registered divergence with a reason.
 */
import { Effect } from "effect"
import type { Difference } from "../diff/Difference.js"
import { type DivergenceRegister, registerEntryFor } from "../diff/DivergenceRegister.js"
import { diffRuns } from "../diff/diffRuns.js"
import type { ClassifiedDifference, ScenarioEvidence, Verdict } from "../evidence/Evidence.js"
import type { JsonValue } from "../json/JsonValue.js"
import type { LearnedNoise } from "../noise/LearnedNoise.js"
import { normalizeRun } from "../normalize/normalizeRun.js"
import type { NormalizedRun } from "../normalize/NormalizedRun.js"
import { runScenario } from "../runner/runScenario.js"
import type { ScenarioRun } from "../runner/ScenarioRun.js"
import type { Scenario } from "../scenario/Scenario.js"
import type { Target, TargetError } from "../target/Target.js"

export interface CompareSettings {
  readonly register: DivergenceRegister
  /** When given, the reference plays each scenario twice and what differs between those runs is learned here. */
  readonly noise?: LearnedNoise
  readonly pin: string
}

export interface ScenarioComparison {
  readonly evidence: ScenarioEvidence
  readonly reference?: ScenarioRun
  readonly candidate?: ScenarioRun
  readonly normalized?: { readonly reference: NormalizedRun; readonly candidate: NormalizedRun }
}

export const classify = (d: Difference, settings: CompareSettings, scenario = ""): ClassifiedDifference => {
  const entry = registerEntryFor(settings.register, d, settings.pin)
  if (entry !== undefined) return { ...d, classification: "registered", reason: `${entry.id}: ${entry.reason}` }
  const noise = settings.noise?.explain(scenario, d)
  if (noise !== undefined) {
    return { ...d, classification: "noise", reason: "differed between two runs of the real gateway on this scenario" }
  }
  return { ...d, classification: "divergence" }
}

const verdictOf = (ds: ReadonlyArray<ClassifiedDifference>): Verdict =>
  ds.length === 0 ? "equal" : ds.some((d) => d.classification === "divergence") ? "divergent" : "tolerated"

const scenarioBase = (scenario: Scenario, file: string | undefined) => ({
  name: scenario.name,
  profile: scenario.profile ?? "strict",
  ...(file !== undefined ? { file } : {}),
  ...(scenario.origin !== undefined ? { origin: scenario.origin as unknown as JsonValue } : {})
})

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
    const candNorm = normalizeRun(candRun, scenario, { clock })
    const classified = diffRuns(refNorm, candNorm).map((d) => classify(d, settings, scenario.name))
    const steps = scenario.steps.map((step, index) => {
      const differences = classified.filter((d) => d.step === index)
      const r = refNorm.steps[index]
      const c = candNorm.steps[index]
      return {
        index,
        kind: r?.kind ?? c?.kind ?? "unknown",
        ...(step.note !== undefined ? { note: step.note } : {}),
        step: step as unknown as JsonValue,
        verdict: verdictOf(differences),
        ...(r !== undefined ? { reference: r } : {}),
        ...(c !== undefined ? { candidate: c } : {}),
        differences,
        // the wire form only where there is something to look at: it would double the evidence otherwise
        ...(differences.length > 0 ? { raw: { reference: refRun.steps[index]?.exchanges ?? [], candidate: candRun.steps[index]?.exchanges ?? [] } } : {})
      }
    })
    const evidence: ScenarioEvidence = {
      ...scenarioBase(scenario, file),
      verdict: verdictOf(classified),
      durationMs: { reference: refRun.durationMs, candidate: candRun.durationMs },
      steps,
      differences: classified.filter((d) => d.step < 0 || d.step >= scenario.steps.length),
      relations: { reference: refNorm.relations, candidate: candNorm.relations }
    }
    return { evidence, reference: refRun, candidate: candRun, normalized: { reference: refNorm, candidate: candNorm } }
  }).pipe(
    Effect.catchAll((e: TargetError) =>
      Effect.succeed({
        evidence: {
          ...scenarioBase(scenario, file),
          verdict: "error" as const,
          error: e.message,
          durationMs: { reference: 0, candidate: 0 },
          steps: [],
          differences: [],
          relations: { reference: [], candidate: [] }
        }
      })
    )
  )
