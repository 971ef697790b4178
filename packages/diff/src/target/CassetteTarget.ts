/**
 * A cassette as a Target: answers each step with what the real gateway answered when it was
 * recorded. The request must be exactly the recorded one (method, path, headers, auth, body);
 * anything else — another request, an extra step — is an error, never a pass.
 */
import { Effect } from "effect"
import type { Cassette } from "../cassette/Cassette.js"
import type { WireRequest } from "../exchange/Exchange.js"
import type { ScenarioRun } from "../runner/ScenarioRun.js"
import { type HttpRequestSpec, type Scenario, type Step, stepKind } from "../scenario/Scenario.js"
import { buildRequest } from "./liveTarget.js"
import type { LiveDriver } from "./LiveDriver.js"
import { type StepOutcome, type Target, TargetError } from "./Target.js"

/** What buildRequest reads: the scenario's request as it would be recorded. */
const recordingView: Pick<LiveDriver, "apiKey" | "hiddenHeaders"> = { apiKey: "", hiddenHeaders: () => ({}) }

const sameRequest = (a: WireRequest, b: WireRequest) =>
  a.method === b.method && a.path === b.path && a.auth === b.auth && a.body === b.body && JSON.stringify(Object.entries(a.headers).sort()) === JSON.stringify(Object.entries(b.headers).sort())

const describe = (r: WireRequest) => `${r.method} ${r.path}${r.body !== undefined ? ` ${r.body.slice(0, 80)}` : ""} (auth ${r.auth})`

export const cassetteTarget = (cassette: Cassette, file: string, run: ScenarioRun = cassette.runs[0]): Target => {
  const fail = (reason: string) => new TargetError({ target: "cassette", reason: `${file}: ${reason}` })
  const apply = (step: Step, index: number): Effect.Effect<StepOutcome, TargetError> => {
    const recorded = run.steps[index]
    if (recorded === undefined) return Effect.fail(fail(`step ${index} (${stepKind(step)}) was never recorded`))
    if (recorded.kind !== stepKind(step)) return Effect.fail(fail(`step ${index} is ${stepKind(step)} but the recording has ${recorded.kind}`))
    const specs: ReadonlyArray<HttpRequestSpec> = "request" in step ? [step.request] : "parallel" in step ? step.parallel.map((p) => p.request) : []
    for (const [i, spec] of specs.entries()) {
      const wanted = buildRequest(spec, recordingView).wire
      const got = recorded.exchanges[i]?.request
      if (got === undefined || !sameRequest(wanted, got)) {
        return Effect.fail(fail(`unrecorded request at step ${index}: ${describe(wanted)}; recorded: ${got === undefined ? "nothing" : describe(got)}`))
      }
    }
    return Effect.succeed({
      exchanges: recorded.exchanges,
      ...(recorded.attempts !== undefined ? { attempts: recorded.attempts } : {}),
      ...(recorded.settled !== undefined ? { settled: recorded.settled } : {})
    })
  }
  return {
    info: { kind: "cassette", pin: cassette.pin, real: true, clock: "running", description: `cassette ${file} (real ${cassette.pin} via ${cassette.provenance.launcher}, recorded ${cassette.provenance.recordedAt})` },
    begin: (scenario: Scenario) =>
      scenario.steps.length === cassette.scenario.steps.length && JSON.stringify(scenario.steps) === JSON.stringify(cassette.scenario.steps)
        ? Effect.void
        : Effect.fail(fail(`the scenario "${scenario.name}" is not the one recorded ("${cassette.scenario.name}")`)),
    apply,
    playNonce: () => run.nonce,
    end: () => Effect.void
  }
}
