/**
 * The shared half of every comparison, after both sides have played: normalize each run, diff
 * them, and classify every difference against the register and learned noise into the common
 * ScenarioEvidence. `oracle compare` (Scenarios on Targets), `oracle fuzz` (raw requests) and
 * `oracle wire` (Scenarios over raw sockets) all judge here, so a difference is tolerated, or not,
 * for the same reason in each.
 */
import type { Difference } from "../diff/Difference.js"
import { type DivergenceRegister, type ExchangeAnswers, registerEntryFor } from "../diff/DivergenceRegister.js"
import { diffRuns } from "../diff/diffRuns.js"
import type { ClassifiedDifference, ScenarioEvidence, Verdict } from "../evidence/Evidence.js"
import type { JsonValue } from "../json/JsonValue.js"
import type { LearnedNoise } from "../noise/LearnedNoise.js"
import { normalizeRun } from "../normalize/normalizeRun.js"
import type { NormalizedRun } from "../normalize/NormalizedRun.js"
import type { ScenarioRun } from "../runner/ScenarioRun.js"
import type { Scenario } from "../scenario/Scenario.js"

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

export const classify = (d: Difference, settings: CompareSettings, scenario = "", answers: ExchangeAnswers = {}): ClassifiedDifference => {
  const entry = registerEntryFor(settings.register, d, settings.pin, answers)
  if (entry !== undefined) return { ...d, classification: "registered", reason: `${entry.id}: ${entry.reason}` }
  const noise = settings.noise?.explain(scenario, d)
  if (noise !== undefined) {
    return { ...d, classification: "noise", reason: "differed between two runs of the real gateway on this scenario" }
  }
  return { ...d, classification: "divergence" }
}

const verdictOf = (ds: ReadonlyArray<ClassifiedDifference>): Verdict =>
  ds.length === 0 ? "equal" : ds.some((d) => d.classification === "divergence") ? "divergent" : "tolerated"

export const scenarioBase = (scenario: Scenario, file: string | undefined) => ({
  name: scenario.name,
  profile: scenario.profile ?? "strict",
  ...(file !== undefined ? { file } : {}),
  ...(scenario.origin !== undefined ? { origin: scenario.origin as unknown as JsonValue } : {})
})

/** The answers of the exchange a difference sits in, on both sides. */
const answersAt = (reference: NormalizedRun, candidate: NormalizedRun, d: Difference): ExchangeAnswers => ({
  reference: reference.steps[d.step]?.exchanges[d.exchange]?.response,
  candidate: candidate.steps[d.step]?.exchanges[d.exchange]?.response
})

export interface JudgeOptions {
  readonly clock: "pinned" | "running"
  readonly file?: string
  /** The reference's run already normalized (noise learning normalizes it first). */
  readonly referenceNormalized?: NormalizedRun
}

export const judgeRuns = (refRun: ScenarioRun, candRun: ScenarioRun, scenario: Scenario, settings: CompareSettings, options: JudgeOptions): ScenarioComparison => {
  const refNorm = options.referenceNormalized ?? normalizeRun(refRun, scenario, { clock: options.clock })
  const candNorm = normalizeRun(candRun, scenario, { clock: options.clock })
  const classified = diffRuns(refNorm, candNorm).map((d) => classify(d, settings, scenario.name, answersAt(refNorm, candNorm, d)))
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
    ...scenarioBase(scenario, options.file),
    verdict: verdictOf(classified),
    durationMs: { reference: refRun.durationMs, candidate: candRun.durationMs },
    steps,
    differences: classified.filter((d) => d.step < 0 || d.step >= scenario.steps.length),
    relations: { reference: refNorm.relations, candidate: candNorm.relations }
  }
  return { evidence, reference: refRun, candidate: candRun, normalized: { reference: refNorm, candidate: candNorm } }
}

/** The evidence of a scenario that could not be compared (a target failed). */
export const errorComparison = (scenario: Scenario, file: string | undefined, error: string): ScenarioComparison => ({
  evidence: {
    ...scenarioBase(scenario, file),
    verdict: "error",
    error,
    durationMs: { reference: 0, candidate: 0 },
    steps: [],
    differences: [],
    relations: { reference: [], candidate: [] }
  }
})
