/**
 * One fuzz case through the shared pipeline: played on the reference and the candidate RawTarget,
 * each answer made a one-step run, and the pair judged by judgeRuns: the scenario normalizer's
 * rules, the differ, and the divergence register (a difference the register does not explain is a
 * divergence). The evidence is a ScenarioEvidence like any scenario's, its origin naming the case.
 */
import { Effect } from "effect"
import { type CompareSettings, judgeRuns, type ScenarioComparison } from "../compare/judgeRuns.js"
import type { Exchange } from "../exchange/Exchange.js"
import type { ScenarioRun } from "../runner/ScenarioRun.js"
import type { Scenario } from "../scenario/Scenario.js"
import type { RawTarget } from "../target/RawTarget.js"
import type { TargetInfo } from "../target/Target.js"
import { caseRequest } from "./caseExchange.js"
import type { FuzzCase } from "./FuzzCase.js"

/** What `oracle fuzz` writes as a case's origin: enough to find the case again from its seed. */
export interface FuzzOrigin {
  readonly generator: "oracle fuzz"
  readonly seed: number
  readonly case: number
  readonly family: string
  readonly label: string
}

/** A case as a one-step Scenario: the name and note carry its exact label (one label, one request). */
export const fuzzScenario = (c: FuzzCase): Scenario => {
  const request = caseRequest(c)
  return {
    version: 1,
    name: `fuzz ${c.id} ${c.family}: ${c.label}`,
    steps: [{ request: { method: request.method, path: request.path, headers: request.headers, auth: request.auth }, note: c.label }]
  }
}

const runOf = (scenario: Scenario, info: TargetInfo, exchange: Exchange, durationMs: number): ScenarioRun => ({
  scenario: scenario.name,
  target: info.kind,
  pin: info.pin,
  steps: [{ index: 0, kind: "request", exchanges: [exchange] }],
  durationMs
})

export interface PlayedCase {
  readonly info: TargetInfo
  readonly exchange: Exchange
  readonly durationMs: number
}

/** The judging half, on answers already in hand (what a test can build without a socket). */
export const judgeFuzzCase = (c: FuzzCase, seed: number, reference: PlayedCase, candidate: PlayedCase, settings: CompareSettings): ScenarioComparison => {
  const scenario = fuzzScenario(c)
  const judged = judgeRuns(runOf(scenario, reference.info, reference.exchange, reference.durationMs), runOf(scenario, candidate.info, candidate.exchange, candidate.durationMs), scenario, settings, {
    clock: "running"
  })
  const origin: FuzzOrigin = { generator: "oracle fuzz", seed, case: c.id, family: c.family, label: c.label }
  return { ...judged, evidence: { ...judged.evidence, origin: { ...origin } } }
}

const play = (target: RawTarget, c: FuzzCase): Effect.Effect<PlayedCase> =>
  Effect.gen(function*() {
    const t0 = performance.now()
    const exchange = yield* target.send(c)
    return { info: target.info, exchange, durationMs: Math.round((performance.now() - t0) * 10) / 10 }
  })

export const compareFuzzCase = (reference: RawTarget, candidate: RawTarget, c: FuzzCase, seed: number, settings: CompareSettings): Effect.Effect<ScenarioComparison> =>
  Effect.gen(function*() {
    const ref = yield* play(reference, c)
    const cand = yield* play(candidate, c)
    return judgeFuzzCase(c, seed, ref, cand, settings)
  })
