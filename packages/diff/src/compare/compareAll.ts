/**
 * A whole comparison: every scenario on both targets, then the Evidence (summary, normalized
 * steps, classified differences, noise, register hits, coverage, provenance).
 */
import { Effect } from "effect"
import { coverageMatrix } from "../coverage/coverageMatrix.js"
import type { DivergenceRegister } from "../diff/DivergenceRegister.js"
import { EVIDENCE_SCHEMA_VERSION, type Evidence, type Provenance } from "../evidence/Evidence.js"
import type { LearnedNoise } from "../noise/LearnedNoise.js"
import { RULES } from "../normalize/NormalizationRule.js"
import type { Scenario } from "../scenario/Scenario.js"
import type { Target } from "../target/Target.js"
import { compareScenario, type ScenarioComparison } from "./compareScenario.js"

export interface ScenarioInput {
  readonly scenario: Scenario
  readonly file?: string
  /** This scenario's own reference (a cassette); the comparison's reference when absent. */
  readonly reference?: Target
  /** Its second recorded run, for learning noise offline. */
  readonly secondReference?: Target
}

export interface CompareAllOptions {
  readonly reference: Target
  readonly candidate: Target
  readonly scenarios: ReadonlyArray<ScenarioInput>
  readonly register: DivergenceRegister
  readonly noise?: LearnedNoise
  /** Why noise was (not) learned, for the evidence. */
  readonly noiseMethod: string
  readonly progress?: (done: number, total: number, comparison: ScenarioComparison) => void
  /** Provenance fields known only to the caller (command line, seed, installed versions…). */
  readonly provenance: Omit<Provenance, "reference" | "candidate" | "pin" | "startedAt" | "finishedAt">
}

export interface ComparisonResult {
  readonly evidence: Evidence
  readonly comparisons: ReadonlyArray<ScenarioComparison>
}

const applies = (scenario: Scenario, pin: string) => scenario.pins === undefined || scenario.pins.includes(pin)

export const compareAll = (options: CompareAllOptions): Effect.Effect<ComparisonResult> =>
  Effect.gen(function*() {
    const startedAt = new Date().toISOString()
    const pin = options.reference.info.pin
    const comparisons: Array<ScenarioComparison> = []
    const inputs = options.scenarios.filter((s) => applies(s.scenario, pin))
    for (const input of inputs) {
      const reference = input.reference ?? options.reference
      const learnNoise = options.noise !== undefined && (input.reference === undefined || input.secondReference !== undefined)
      const comparison = yield* compareScenario(
        reference,
        options.candidate,
        input.scenario,
        { register: options.register, pin, ...(learnNoise && options.noise !== undefined ? { noise: options.noise } : {}) },
        input.file,
        input.secondReference ?? reference
      )
      comparisons.push(comparison)
      options.progress?.(comparisons.length, inputs.length, comparison)
    }
    return { evidence: buildEvidence(comparisons, options, startedAt), comparisons }
  })

export interface EvidenceContext {
  readonly reference: Target
  readonly candidate: Target
  readonly register: DivergenceRegister
  readonly noise?: LearnedNoise
  readonly noiseMethod: string
  readonly provenance: CompareAllOptions["provenance"]
}

/** The Evidence of a set of scenario comparisons (from compareAll, the generator's search, or both). */
export const buildEvidence = (comparisons: ReadonlyArray<ScenarioComparison>, options: EvidenceContext, startedAt: string): Evidence => {
  const pin = options.reference.info.pin
  const scenarios = comparisons.map((c) => c.evidence)
  const all = scenarios.flatMap((s) => [...s.steps.flatMap((st) => st.differences), ...s.differences])
  const fired = (side: "reference" | "candidate", rule: string) =>
    comparisons.reduce((n, c) => n + (c.normalized?.[side].fired.get(rule) ?? 0), 0)
  const seconds = (side: "reference" | "candidate") => comparisons.reduce((n, c) => n + c.evidence.durationMs[side], 0) / 1000
  const rate = (side: "reference" | "candidate") => {
    const s = seconds(side)
    return s === 0 ? 0 : Math.round((scenarios.filter((x) => x.verdict !== "error").length / s) * 10) / 10
  }
  const clock = options.reference.info.clock === "pinned" && options.candidate.info.clock === "pinned" ? "pinned" : "running"
  return {
    schema: "hermetic/evidence",
    schemaVersion: EVIDENCE_SCHEMA_VERSION,
    provenance: {
      ...options.provenance,
      pin,
      reference: { ...options.reference.info },
      candidate: { ...options.candidate.info },
      startedAt,
      finishedAt: new Date().toISOString()
    },
    summary: {
      scenarios: scenarios.length,
      equal: scenarios.filter((s) => s.verdict === "equal").length,
      tolerated: scenarios.filter((s) => s.verdict === "tolerated").length,
      divergent: scenarios.filter((s) => s.verdict === "divergent").length,
      errors: scenarios.filter((s) => s.verdict === "error").length,
      steps: scenarios.reduce((n, s) => n + s.steps.length, 0),
      exchanges: comparisons.reduce((n, c) => n + (c.candidate?.steps.reduce((m, st) => m + st.exchanges.length, 0) ?? 0), 0),
      differences: {
        divergence: all.filter((d) => d.classification === "divergence").length,
        noise: all.filter((d) => d.classification === "noise").length,
        registered: all.filter((d) => d.classification === "registered").length
      },
      scenariosPerSecond: { reference: rate("reference"), candidate: rate("candidate") }
    },
    normalization: {
      clock,
      rules: RULES.filter((r) => clock === "running" || r.id !== "time.relations").map((r) => ({
        ...r,
        fired: { reference: fired("reference", r.id), candidate: fired("candidate", r.id) }
      }))
    },
    noise: { method: options.noiseMethod, observations: options.noise?.observations ?? [] },
    register: options.register.entries
      .filter((e) => e.pins === undefined || e.pins.includes(pin))
      .map((e) => ({ ...e, hits: all.filter((d) => d.classification === "registered" && d.reason?.startsWith(`${e.id}:`)).length })),
    scenarios,
    coverage: coverageMatrix(pin, options.reference.info.real, comparisons)
  }
}


/** Exit code of a comparison: 0 all equal or tolerated, 1 divergences, 2 the oracle could not run. */
export const exitCodeOf = (evidence: Evidence): 0 | 1 | 2 =>
  evidence.summary.errors > 0 || evidence.summary.scenarios === 0 ? 2 : evidence.summary.divergent > 0 ? 1 : 0
