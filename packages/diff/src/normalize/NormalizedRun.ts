/** A ScenarioRun after normalization: what the differ compares and the evidence shows. */
import { Schema } from "effect"
import { ResponseHead } from "../exchange/Exchange.js"
import { JsonValue } from "../json/JsonValue.js"

export const NormalizedFrame = Schema.Struct({
  event: Schema.optional(Schema.String),
  id: Schema.optional(Schema.String),
  retry: Schema.optional(Schema.String),
  comment: Schema.optional(Schema.String),
  data: Schema.optional(JsonValue)
})
export type NormalizedFrame = typeof NormalizedFrame.Type

export const NormalizedBody = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("empty") }),
  Schema.Struct({ kind: Schema.Literal("json"), value: JsonValue }),
  /** A body that says it is JSON but does not parse: compared as text. */
  Schema.Struct({ kind: Schema.Literal("invalid-json"), text: Schema.String }),
  Schema.Struct({ kind: Schema.Literal("text"), text: Schema.String }),
  Schema.Struct({ kind: Schema.Literal("sse"), frames: Schema.Array(NormalizedFrame), complete: Schema.Boolean, stoppedBy: Schema.optional(Schema.String) })
)
export type NormalizedBody = typeof NormalizedBody.Type

export const NormalizedExchange = Schema.Struct({
  request: Schema.Struct({
    method: Schema.String,
    path: Schema.String,
    headers: Schema.Record({ key: Schema.String, value: Schema.String }),
    auth: Schema.String,
    body: Schema.optional(JsonValue)
  }),
  response: Schema.optional(
    Schema.Struct({
      status: Schema.Number,
      headers: Schema.Record({ key: Schema.String, value: Schema.String }),
      body: NormalizedBody,
      /** The head as it came over a raw socket, compared as it is (nothing in it is server-made). */
      head: Schema.optional(ResponseHead)
    })
  ),
  transportError: Schema.optional(Schema.String)
})
export type NormalizedExchange = typeof NormalizedExchange.Type

export const NormalizedStep = Schema.Struct({
  index: Schema.Number,
  kind: Schema.String,
  note: Schema.optional(Schema.String),
  exchanges: Schema.Array(NormalizedExchange),
  settled: Schema.optional(Schema.Boolean),
  error: Schema.optional(Schema.String)
})
export type NormalizedStep = typeof NormalizedStep.Type

/** A relation between timestamps that held or did not, named the same way on both sides. */
export const TimeRelation = Schema.Struct({ id: Schema.String, holds: Schema.Boolean })
export type TimeRelation = typeof TimeRelation.Type

export interface NormalizedRun {
  readonly steps: ReadonlyArray<NormalizedStep>
  readonly relations: ReadonlyArray<TimeRelation>
  /** Rule id → how often it fired on this side. */
  readonly fired: ReadonlyMap<string, number>
}
