/**
 * The Scenario: the unit of comparison. JSON, versioned, hand-writable; what generators produce
 * and counterexamples are saved as. Both targets play the same steps; each target adds its own key.
 *
 *   script   append turns to the model's Script (emulator Agent / the real gateway's fake model)
 *   request  one HTTP request; path, headers and body may hold `{alias.field}` references to
 *            earlier responses named with `as` (and `{play.nonce}`, fresh on every play; an SSE
 *            response binds `{alias.frames.N...}`, its frames' data); `until` polls until a
 *            settle condition holds
 *   parallel several requests sent at once (idempotency races, concurrent submissions)
 *   awaitHold wait until a model reply is actually held (the agent reached it): a settle point
 *            before anything else consumes Script turns
 *   release  release a held model reply
 *   clock    set / advance / freeze the server's wall clock
 *   restart  restart the server on the same state (`crash: true` = SIGKILL on the real gateway)
 *   reset    a fresh fake model, its holds dropped; the emulator's namespace starts empty, while
 *            the real gateway restarts on the same sessions database and faked clock (README:
 *            steps after a reset should judge only what both forget: runs, holds, the Script)
 *   drain    refuse new agent work with 503 while in-flight work finishes (`true`), or accept it
 *            again (`false`): the real gateway's external drain (a marker file in HERMES_HOME)
 *   modelCalls  (opt-in) record the model calls made since the scenario began, with the messages
 *            each sent the model, as one synthetic exchange compared through the view both sides
 *            share (modelCalls/ModelCallView.ts): what the gateway sent, not only what it answered
 */
import { ClockCommand, Script } from "@hermetic/script"
import { Schema } from "effect"
import { JsonValue } from "../json/JsonValue.js"
import { GATEWAY_PROFILES } from "../profile/GatewayProfile.js"

export const ScenarioVersion = 1 as const

export const HttpRequestSpec = Schema.Struct({
  method: Schema.String,
  path: Schema.String,
  headers: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  /** A JSON body (serialized with JSON.stringify; content-type application/json unless set). */
  body: Schema.optional(JsonValue),
  /** A body sent verbatim (invalid JSON, odd encodings); excludes `body`. */
  rawBody: Schema.optional(Schema.String),
  /**
   * A body made on the fly: `size` bytes of `filler` (one character, "x" by default), sent with a
   * Content-Length, or `chunked` (no Content-Length, 64 KiB chunks). For sizes a scenario file
   * cannot hold, such as the 10 MB request limit; recorded as a description, never as the bytes.
   */
  generatedBody: Schema.optional(
    Schema.Struct({
      size: Schema.Number.pipe(Schema.int(), Schema.between(0, 64 * 1024 * 1024)),
      filler: Schema.optional(Schema.String.pipe(Schema.length(1))),
      chunked: Schema.optional(Schema.Boolean)
    })
  ),
  /** "key" (default) sends the target's key; "none" sends no Authorization; "wrong" a wrong key. */
  auth: Schema.optional(Schema.Literal("key", "none", "wrong")),
  /** For an SSE response: stop after this many frames instead of reading to the end. */
  maxFrames: Schema.optional(Schema.Number)
})
export type HttpRequestSpec = typeof HttpRequestSpec.Type

export const Until = Schema.Struct({
  /** Settle when the body's `status` field is one of these. */
  status: Schema.optional(Schema.Array(Schema.String)),
  /** Settle when the body's `status` is terminal (completed, failed, cancelled, interrupted, …). */
  terminal: Schema.optional(Schema.Boolean),
  /** Settle when the JSON body's field at this dotted path (e.g. "job.last_status") is one of `in`. */
  field: Schema.optional(Schema.Struct({ path: Schema.String, in: Schema.Array(Schema.String) })),
  /** Settle when the HTTP status is one of these (e.g. [404] after an expiry sweep). */
  httpStatus: Schema.optional(Schema.Array(Schema.Number)),
  /** Give up after this long (default 10 s); an unsettled step is recorded as such and compared. */
  deadlineMs: Schema.optional(Schema.Number)
})
export type Until = typeof Until.Type

const Labelled = { note: Schema.optional(Schema.String) }

export const ScriptStep = Schema.Struct({ script: Script, ...Labelled })
export const RequestStep = Schema.Struct({
  request: HttpRequestSpec,
  as: Schema.optional(Schema.String),
  until: Schema.optional(Until),
  ...Labelled
})
export const ParallelStep = Schema.Struct({
  parallel: Schema.Array(Schema.Struct({ request: HttpRequestSpec, as: Schema.optional(Schema.String) })),
  ...Labelled
})
export const ReleaseStep = Schema.Struct({ release: Schema.String, ...Labelled })
export const AwaitHoldStep = Schema.Struct({
  awaitHold: Schema.String,
  /** Give up after this long (default 10 s); recorded as not settled and compared. */
  deadlineMs: Schema.optional(Schema.Number),
  ...Labelled
})
// the control plane's clock command: one definition, in packages/script
export { ClockCommand }
export const ClockStep = Schema.Struct({ clock: ClockCommand, ...Labelled })
export const RestartStep = Schema.Struct({
  restart: Schema.Struct({ crash: Schema.optional(Schema.Boolean) }),
  ...Labelled
})
export const ResetStep = Schema.Struct({ reset: Schema.Struct({}), ...Labelled })
export const DrainStep = Schema.Struct({ drain: Schema.Boolean, ...Labelled })
export const ModelCallsStep = Schema.Struct({ modelCalls: Schema.Struct({}), ...Labelled })

export const Step = Schema.Union(ScriptStep, RequestStep, ParallelStep, AwaitHoldStep, ReleaseStep, ClockStep, RestartStep, ResetStep, DrainStep, ModelCallsStep)
export type Step = typeof Step.Type
export type ScriptStep = typeof ScriptStep.Type
export type RequestStep = typeof RequestStep.Type
export type ParallelStep = typeof ParallelStep.Type

export const Scenario = Schema.Struct({
  version: Schema.Literal(ScenarioVersion),
  name: Schema.String,
  description: Schema.optional(Schema.String),
  /** Pins this scenario applies to (all when absent): a 0.21.0-only feature says so here. */
  pins: Schema.optional(Schema.Array(Schema.String)),
  /** The gateway profile it needs (profile/GatewayProfile.ts): "strict" when absent. */
  profile: Schema.optional(Schema.Literal(...GATEWAY_PROFILES)),
  /** Where a generated scenario came from (seed, path), so it can be reproduced. */
  origin: Schema.optional(Schema.Struct({ seed: Schema.optional(Schema.Number), path: Schema.optional(Schema.String), generator: Schema.optional(Schema.String) })),
  steps: Schema.Array(Step)
}).annotations({ identifier: "Scenario" })
export type Scenario = typeof Scenario.Type

export type StepKind = "script" | "request" | "parallel" | "awaitHold" | "release" | "clock" | "restart" | "reset" | "drain" | "modelCalls"

export const stepKind = (step: Step): StepKind => {
  if ("script" in step) return "script"
  if ("request" in step) return "request"
  if ("parallel" in step) return "parallel"
  if ("awaitHold" in step) return "awaitHold"
  if ("release" in step) return "release"
  if ("clock" in step) return "clock"
  if ("restart" in step) return "restart"
  if ("drain" in step) return "drain"
  if ("modelCalls" in step) return "modelCalls"
  return "reset"
}

export const decodeScenarioSync = Schema.decodeUnknownSync(Scenario)

/** Run statuses after which a run never changes again. */
export const TERMINAL_RUN_STATUSES: ReadonlyArray<string> = ["completed", "failed", "cancelled", "interrupted", "expired", "incomplete"]
