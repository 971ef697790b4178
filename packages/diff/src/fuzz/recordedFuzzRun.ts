/**
 * A committed live fuzz run (`oracle fuzz` evidence) as something the emulator can be judged
 * against again, offline: every case regenerated from the run's seed, with the real gateway's
 * recorded answer (already normalized in the evidence) and the state it met. The cassettes give
 * the same for scenarios; this gives it for the bytes fetch cannot send (parser limits, framing,
 * broken headers and bodies), so the mutation suite judges the emulator's HTTP edge too.
 *
 * The state a case met: the live run sent every case to one gateway, in order. A request the
 * gateway refused changes nothing (what `oracle fuzz` checks of the emulator after each rejected
 * case), so what a case met is made by the earlier cases the real gateway accepted as writes
 * (a 2xx to a method other than GET, HEAD or OPTIONS). Replaying those first on a fresh emulator
 * gives each case its live state without the other cases, so each case is judged on its own.
 */
import { judgeRuns, type CompareSettings, type ScenarioComparison } from "../compare/judgeRuns.js"
import type { Evidence, ScenarioEvidence } from "../evidence/Evidence.js"
import type { Exchange } from "../exchange/Exchange.js"
import type { NormalizedExchange } from "../normalize/NormalizedRun.js"
import type { ScenarioRun } from "../runner/ScenarioRun.js"
import { fuzzScenario } from "./compareFuzzCase.js"
import type { FuzzCase } from "./FuzzCase.js"
import { generateCases } from "./generateCases.js"

export interface RecordedFuzzCase {
  readonly case: FuzzCase
  /** The real gateway's answer as the evidence holds it (normalized). */
  readonly reference: NormalizedExchange
  readonly evidence: ScenarioEvidence
  /** The earlier cases the real gateway accepted as writes, in order: the state this case met. */
  readonly before: ReadonlyArray<FuzzCase>
}

const READS = new Set(["GET", "HEAD", "OPTIONS"])

const caseNumber = (s: ScenarioEvidence): number | undefined => {
  const origin = s.origin as { readonly generator?: unknown; readonly case?: unknown } | undefined
  return origin?.generator === "oracle fuzz" && typeof origin.case === "number" ? origin.case : undefined
}

/** The run's cases with their recorded answers; fails when the generator no longer makes the run's cases. */
export const recordedFuzzRun = (evidence: Evidence): ReadonlyArray<RecordedFuzzCase> => {
  const { seed, runs, pin } = evidence.provenance
  if (seed === undefined) throw new Error("the evidence has no seed: it is not an `oracle fuzz` run")
  const byCase = new Map<number, ScenarioEvidence>()
  for (const s of evidence.scenarios) {
    const n = caseNumber(s)
    if (n !== undefined) byCase.set(n, s)
  }
  const out: Array<RecordedFuzzCase> = []
  const writes: Array<FuzzCase> = []
  for (const c of generateCases(pin as Parameters<typeof generateCases>[0], seed, runs)) {
    const s = byCase.get(c.id)
    const reference = s?.steps[0]?.reference?.exchanges[0]
    if (s === undefined || reference === undefined) throw new Error(`case ${c.id} has no recorded answer in the evidence`)
    const label = (s.origin as { readonly label?: unknown }).label
    if (label !== c.label) throw new Error(`case ${c.id} is no longer the recorded request (the generator changed): re-record the live fuzz run (\`oracle fuzz --count ${runs} --seed ${seed}\`)`)
    out.push({ case: c, reference, evidence: s, before: [...writes] })
    const status = reference.response?.status ?? 0
    if (status >= 200 && status < 300 && !READS.has(c.method.toUpperCase())) writes.push(c)
  }
  return out
}

/** Judges the candidate's answer to a recorded case against the real one, on the shared pipeline (normalizer, differ, register). */
export const judgeRecordedCase = (recorded: RecordedFuzzCase, candidate: Exchange, settings: CompareSettings): ScenarioComparison => {
  const scenario = fuzzScenario(recorded.case)
  const candidateRun: ScenarioRun = { scenario: scenario.name, target: "emulator-http", pin: settings.pin, steps: [{ index: 0, kind: "request", exchanges: [candidate] }], durationMs: 0 }
  // the evidence keeps the real answer normalized, not as it came: the reference run has no raw exchanges to show
  const referenceRun: ScenarioRun = { scenario: scenario.name, target: "gateway-process", pin: settings.pin, steps: [], durationMs: 0 }
  const referenceNormalized = { steps: [{ index: 0, kind: "request", exchanges: [recorded.reference] }], relations: recorded.evidence.relations.reference, fired: new Map<string, number>() }
  return judgeRuns(referenceRun, candidateRun, scenario, settings, { clock: "running", referenceNormalized })
}
