/**
 * Records a Scenario on a target (the real gateway, for committed fixtures) into a Cassette.
 * With `runs: 2` the scenario is played twice, so replay can learn the gateway's noise offline.
 */
import { Effect } from "effect"
import type { JsonValue } from "../json/JsonValue.js"
import { runScenario } from "../runner/runScenario.js"
import type { ScenarioRun } from "../runner/ScenarioRun.js"
import type { Scenario } from "../scenario/Scenario.js"
import type { Target, TargetError } from "../target/Target.js"
import { CASSETTE_VERSION, type Cassette } from "./Cassette.js"

export interface RecordProvenance {
  readonly launcher: string
  readonly installed?: Record<string, string>
  readonly sourceLock?: JsonValue
  readonly hermeticCommit: string
}

export const recordCassette = (target: Target, scenario: Scenario, runs: 1 | 2, provenance: RecordProvenance): Effect.Effect<Cassette, TargetError> =>
  Effect.gen(function*() {
    const first = yield* runScenario(target, scenario)
    const rest: Array<ScenarioRun> = []
    if (runs === 2) rest.push(yield* runScenario(target, scenario))
    return {
      schema: "hermetic/cassette" as const,
      version: CASSETTE_VERSION,
      pin: target.info.pin,
      scenario,
      provenance: {
        recordedAt: new Date().toISOString(),
        target: target.info.description,
        node: process.version,
        ...provenance
      },
      runs: [first, ...rest]
    }
  })
