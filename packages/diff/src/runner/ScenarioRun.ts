/**
 * What playing one Scenario on one target produced: per step, the exchanges as sent and received.
 * This is what cassettes store and what the normalizer and the differ read.
 */
import { Schema } from "effect"
import { Exchange } from "../exchange/Exchange.js"

export const StepRecord = Schema.Struct({
  index: Schema.Number,
  kind: Schema.Literal("script", "request", "parallel", "awaitHold", "release", "clock", "restart", "reset", "drain", "modelCalls"),
  note: Schema.optional(Schema.String),
  exchanges: Schema.Array(Exchange),
  attempts: Schema.optional(Schema.Number),
  settled: Schema.optional(Schema.Boolean),
  /** The step could not be played (e.g. a reference to a field the earlier response lacked). */
  error: Schema.optional(Schema.String)
})
export type StepRecord = typeof StepRecord.Type

export const ScenarioRun = Schema.Struct({
  scenario: Schema.String,
  target: Schema.String,
  pin: Schema.String,
  /** The `{play.nonce}` this play used (a cassette replays with the recorded one). */
  nonce: Schema.optional(Schema.String),
  steps: Schema.Array(StepRecord),
  durationMs: Schema.Number
})
export type ScenarioRun = typeof ScenarioRun.Type
