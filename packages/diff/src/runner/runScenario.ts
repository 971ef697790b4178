/**
 * Plays a Scenario on a Target step by step: resolves `{alias.field}` references against this
 * target's own earlier responses, applies the step, binds named responses. A step whose reference
 * cannot be resolved is recorded with its error and the scenario goes on; a TargetError (the
 * target could not act) ends the run and propagates, since nothing after it would mean anything.
 */
import { randomBytes } from "node:crypto"
import { Effect } from "effect"
import type { Exchange } from "../exchange/Exchange.js"
import { parseSse } from "../exchange/SseFrames.js"
import type { JsonValue } from "../json/JsonValue.js"
import { parseJsonPreservingNumbers } from "../json/parseJsonPreservingNumbers.js"
import { type Bindings, resolveJson, resolveString, UnresolvedReference } from "../scenario/References.js"
import { type HttpRequestSpec, type Scenario, type Step, stepKind } from "../scenario/Scenario.js"
import type { Target, TargetError } from "../target/Target.js"
import type { ScenarioRun, StepRecord } from "./ScenarioRun.js"

/** The reserved alias of per-play values. */
export const PLAY_ALIAS = "play"

const resolveRequest = (spec: HttpRequestSpec, bindings: Bindings): HttpRequestSpec => ({
  ...spec,
  path: resolveString(spec.path, bindings),
  ...(spec.headers !== undefined
    ? { headers: Object.fromEntries(Object.entries(spec.headers).map(([k, v]) => [k, resolveString(v, bindings)])) }
    : {}),
  ...(spec.body !== undefined ? { body: resolveJson(spec.body, bindings) } : {}),
  ...(spec.rawBody !== undefined ? { rawBody: resolveString(spec.rawBody, bindings) } : {})
})

const resolveStep = (step: Step, bindings: Bindings): Step => {
  if ("request" in step) return { ...step, request: resolveRequest(step.request, bindings) }
  if ("parallel" in step) return { ...step, parallel: step.parallel.map((p) => ({ ...p, request: resolveRequest(p.request, bindings) })) }
  return step
}

/**
 * What `as` binds: a JSON body parsed; an SSE body as `{frames: [...]}`, the `data` of each frame
 * that has one, parsed (its text when it is not JSON; comment-only frames such as keepalives are
 * timing and left out), so a later step can name a value only the stream carries, such as a
 * streamed response's id (`{s1.frames.0.response.id}`).
 */
export const bodyValue = (exchange: Exchange | undefined): JsonValue | undefined => {
  const body = exchange?.response?.body
  if (body === undefined) return undefined
  if (body.kind === "sse") return { frames: parseSse(body.text).flatMap((frame) => (frame.data === undefined ? [] : [frameData(frame.data)])) }
  if (body.kind !== "json") return undefined
  try {
    return parseJsonPreservingNumbers(body.text)
  } catch {
    return undefined
  }
}

const frameData = (data: string): JsonValue => {
  try {
    return parseJsonPreservingNumbers(data)
  } catch {
    return data
  }
}

export const runScenario = (target: Target, scenario: Scenario): Effect.Effect<ScenarioRun, TargetError> =>
  Effect.gen(function*() {
    const started = Date.now()
    const bindings = new Map<string, JsonValue>()
    // `{play.nonce}`: fresh on every play, for keys and texts that must not meet server state left by earlier plays
    const nonce = target.playNonce?.() ?? `play-${randomBytes(6).toString("hex")}`
    bindings.set(PLAY_ALIAS, { nonce })
    const records: Array<StepRecord> = []
    yield* target.begin(scenario)
    const played = Effect.gen(function*() {
      for (const [index, step] of scenario.steps.entries()) {
        const base = { index, kind: stepKind(step), ...(step.note !== undefined ? { note: step.note } : {}) }
        let resolved: Step
        try {
          resolved = resolveStep(step, bindings)
        } catch (e) {
          if (!(e instanceof UnresolvedReference)) throw e
          records.push({ ...base, exchanges: [], error: e.message })
          continue
        }
        const outcome = yield* target.apply(resolved, index)
        records.push({
          ...base,
          exchanges: outcome.exchanges,
          ...(outcome.attempts !== undefined ? { attempts: outcome.attempts } : {}),
          ...(outcome.settled !== undefined ? { settled: outcome.settled } : {})
        })
        if ("request" in step && step.as !== undefined) {
          const value = bodyValue(outcome.exchanges[0])
          if (value !== undefined) bindings.set(step.as, value)
        }
        if ("parallel" in step) {
          step.parallel.forEach((p, i) => {
            const value = bodyValue(outcome.exchanges[i])
            if (p.as !== undefined && value !== undefined) bindings.set(p.as, value)
          })
        }
      }
    })
    // `end` runs on every path; when the play itself went through, its failure (state left behind on a shared gateway) is the play's
    yield* Effect.onError(played, () => Effect.ignore(target.end(scenario)))
    yield* target.end(scenario)
    return {
      scenario: scenario.name,
      target: target.info.kind,
      pin: target.info.pin,
      nonce,
      steps: records,
      durationMs: Date.now() - started
    } satisfies ScenarioRun
  })
