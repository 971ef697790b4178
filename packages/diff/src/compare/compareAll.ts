/**
 * A whole comparison: every scenario on both targets, then the Evidence. With several workers
 * (each its own reference and candidate: a real gateway with its own fake model, HERMES_HOME and
 * port, and an emulator) the scenarios are dealt out as workers come free; the evidence lists them
 * in the scenario set's order whatever the order they finished in.
 */
import { Effect } from "effect"
import type { DivergenceRegister } from "../diff/DivergenceRegister.js"
import { assembleEvidence, type RuleCounts } from "../evidence/assembleEvidence.js"
import type { Evidence, Provenance } from "../evidence/Evidence.js"
import type { LearnedNoise } from "../noise/LearnedNoise.js"
import type { Scenario } from "../scenario/Scenario.js"
import type { Target } from "../target/Target.js"
import { compareScenario } from "./compareScenario.js"
import type { ScenarioComparison } from "./judgeRuns.js"

export interface ScenarioInput {
  readonly scenario: Scenario
  readonly file?: string
  /** Place in the whole scenario set (see scenarioSet.ts); kept in the evidence so merged shards line up. */
  readonly position?: number
  /** This scenario's own reference (a cassette); the worker's reference when absent. */
  readonly reference?: Target
  /** Its second recorded run, for learning noise offline. */
  readonly secondReference?: Target
}

/** One reference/candidate pair: scenarios on one worker play one after another. */
export interface Worker {
  readonly reference: Target
  readonly candidate: Target
}

export interface CompareAllOptions extends Worker {
  /** Further workers playing alongside the first (`--workers N` gives N - 1 here). */
  readonly moreWorkers?: ReadonlyArray<Worker>
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
  /** In the order of `scenarios` (pin-filtered). */
  readonly comparisons: ReadonlyArray<ScenarioComparison>
}

export const appliesTo = (scenario: Scenario, pin: string) => scenario.pins === undefined || scenario.pins.includes(pin)

/** How often each normalization rule fired on each side, over all comparisons. */
export const firedCounts = (comparisons: ReadonlyArray<ScenarioComparison>): RuleCounts => {
  const counts = new Map<string, { reference: number; candidate: number }>()
  for (const c of comparisons) {
    for (const side of ["reference", "candidate"] as const) {
      for (const [rule, n] of c.normalized?.[side].fired ?? []) {
        const entry = counts.get(rule) ?? { reference: 0, candidate: 0 }
        entry[side] += n
        counts.set(rule, entry)
      }
    }
  }
  return counts
}

export const compareAll = (options: CompareAllOptions): Effect.Effect<ComparisonResult> =>
  Effect.gen(function*() {
    const startedAt = new Date().toISOString()
    const t0 = performance.now()
    const pin = options.reference.info.pin
    const inputs = options.scenarios.filter((s) => appliesTo(s.scenario, pin))
    const results: Array<ScenarioComparison | undefined> = inputs.map(() => undefined)
    let next = 0
    let done = 0
    const play = (worker: Worker) =>
      Effect.gen(function*() {
        // each worker takes the next unplayed scenario until none is left
        for (let i = next++; i < inputs.length; i = next++) {
          const input = inputs[i] as ScenarioInput
          const reference = input.reference ?? worker.reference
          const learnNoise = options.noise !== undefined && (input.reference === undefined || input.secondReference !== undefined)
          const comparison = yield* compareScenario(
            reference,
            worker.candidate,
            input.scenario,
            { register: options.register, pin, ...(learnNoise && options.noise !== undefined ? { noise: options.noise } : {}) },
            input.file,
            input.secondReference ?? reference
          )
          const placed = input.position === undefined ? comparison : { ...comparison, evidence: { ...comparison.evidence, position: input.position } }
          results[i] = placed
          options.progress?.(++done, inputs.length, placed)
        }
      })
    const workers = [{ reference: options.reference, candidate: options.candidate }, ...(options.moreWorkers ?? [])]
    yield* Effect.forEach(workers, play, { concurrency: "unbounded", discard: true })
    const comparisons = results.filter((c): c is ScenarioComparison => c !== undefined)
    const clock = options.reference.info.clock === "pinned" && options.candidate.info.clock === "pinned" ? "pinned" : "running"
    const evidence = assembleEvidence({
      scenarios: comparisons.map((c) => c.evidence),
      fired: firedCounts(comparisons),
      noise: { method: options.noiseMethod, observations: options.noise?.observations ?? [] },
      register: options.register,
      clock,
      provenance: {
        ...options.provenance,
        ...(workers.length > 1 ? { workers: workers.length } : {}),
        pin,
        reference: { ...options.reference.info },
        candidate: { ...options.candidate.info },
        startedAt,
        finishedAt: new Date().toISOString()
      },
      wallSeconds: (performance.now() - t0) / 1000
    })
    return { evidence, comparisons }
  })

/** Exit code of a comparison: 0 all equal or tolerated, 1 divergences, 2 the oracle could not run. */
export const exitCodeOf = (evidence: Evidence): 0 | 1 | 2 =>
  evidence.summary.errors > 0 || evidence.summary.scenarios === 0 ? 2 : evidence.summary.divergent > 0 ? 1 : 0
