/**
 * The one place Evidence is built: from the scenarios' evidence, how often each normalization
 * rule fired, the learned noise and the register. A comparison (any number of workers) and a
 * merge of shards both end here, so their evidence agrees by construction.
 */
import { coverageMatrix } from "../coverage/coverageMatrix.js"
import type { DivergenceRegister } from "../diff/DivergenceRegister.js"
import type { NoiseObservation } from "../noise/LearnedNoise.js"
import { RULES, TIME_RELATIONS } from "../normalize/NormalizationRule.js"
import { EVIDENCE_SCHEMA_VERSION, type Evidence, type Provenance, type ScenarioEvidence } from "./Evidence.js"

/** Rule id → how often it fired on each side. */
export type RuleCounts = ReadonlyMap<string, { readonly reference: number; readonly candidate: number }>

export interface EvidenceParts {
  readonly scenarios: ReadonlyArray<ScenarioEvidence>
  readonly fired: RuleCounts
  readonly noise: { readonly method: string; readonly observations: ReadonlyArray<NoiseObservation> }
  readonly register: DivergenceRegister
  readonly clock: "pinned" | "running"
  readonly provenance: Provenance
  /** Wall-clock seconds the comparison took; absent when unknown. */
  readonly wallSeconds?: number
}

const round1 = (n: number) => Math.round(n * 10) / 10

/** Scenarios in the order of the whole scenario set (a position when known, else as given). */
export const inSetOrder = (scenarios: ReadonlyArray<ScenarioEvidence>): Array<ScenarioEvidence> =>
  scenarios
    .map((s, i) => ({ s, key: s.position ?? i }))
    .sort((a, b) => a.key - b.key)
    .map(({ s }) => s)

/** Noise observations grouped by their scenario's place in the set (workers learn in any order). */
const inScenarioOrder = (observations: ReadonlyArray<NoiseObservation>, scenarios: ReadonlyArray<ScenarioEvidence>) => {
  const place = new Map(scenarios.map((s, i) => [s.name, i]))
  return observations
    .map((o, i) => ({ o, i }))
    .sort((a, b) => (place.get(a.o.scenario) ?? Infinity) - (place.get(b.o.scenario) ?? Infinity) || a.o.step - b.o.step || a.i - b.i)
    .map(({ o }) => o)
}

export const assembleEvidence = (parts: EvidenceParts): Evidence => {
  const { provenance } = parts
  const pin = provenance.pin
  const scenarios = inSetOrder(parts.scenarios)
  const all = scenarios.flatMap((s) => [...s.steps.flatMap((st) => st.differences), ...s.differences])
  const compared = scenarios.filter((x) => x.verdict !== "error").length
  const rate = (side: "reference" | "candidate") => {
    const seconds = scenarios.reduce((n, s) => n + s.durationMs[side], 0) / 1000
    return seconds === 0 ? 0 : round1(compared / seconds)
  }
  return {
    schema: "hermetic/evidence",
    schemaVersion: EVIDENCE_SCHEMA_VERSION,
    provenance,
    summary: {
      scenarios: scenarios.length,
      equal: scenarios.filter((s) => s.verdict === "equal").length,
      tolerated: scenarios.filter((s) => s.verdict === "tolerated").length,
      divergent: scenarios.filter((s) => s.verdict === "divergent").length,
      errors: scenarios.filter((s) => s.verdict === "error").length,
      steps: scenarios.reduce((n, s) => n + s.steps.length, 0),
      exchanges: scenarios.reduce((n, s) => n + s.steps.reduce((m, st) => m + (st.candidate?.exchanges.length ?? 0), 0), 0),
      differences: {
        divergence: all.filter((d) => d.classification === "divergence").length,
        noise: all.filter((d) => d.classification === "noise").length,
        registered: all.filter((d) => d.classification === "registered").length
      },
      scenariosPerSecond: { reference: rate("reference"), candidate: rate("candidate") },
      ...(parts.wallSeconds !== undefined
        ? { wallSeconds: Math.round(parts.wallSeconds * 100) / 100, throughput: parts.wallSeconds === 0 ? 0 : Math.round((compared / parts.wallSeconds) * 100) / 100 }
        : {})
    },
    normalization: {
      clock: parts.clock,
      rules: RULES.filter((r) => parts.clock === "running" || r.id !== TIME_RELATIONS.id).map((r) => ({
        ...r,
        fired: parts.fired.get(r.id) ?? { reference: 0, candidate: 0 }
      }))
    },
    noise: { method: parts.noise.method, observations: inScenarioOrder(parts.noise.observations, scenarios) },
    register: parts.register.entries
      .filter((e) => e.pins === undefined || e.pins.includes(pin))
      .map((e) => ({ ...e, hits: all.filter((d) => d.classification === "registered" && d.reason?.startsWith(`${e.id}:`)).length })),
    scenarios,
    coverage: coverageMatrix(pin, provenance.reference.real, scenarios)
  }
}
