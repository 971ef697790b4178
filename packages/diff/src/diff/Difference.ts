/**
 * A typed difference between the reference side (the real gateway, or its cassette) and the
 * candidate (the emulator), located by step, exchange and JSON path.
 */
import { Schema } from "effect"
import { JsonValue } from "../json/JsonValue.js"

export const DifferenceKind = Schema.Literal(
  "status",
  /** The raw status line (version, code, reason phrase): raw-socket exchanges only. */
  "status-line",
  "header",
  /** Header names in wire order with their casing: raw-socket exchanges only. */
  "header-names",
  /** Content-Length, chunked, or delimited by the close: raw-socket exchanges only. */
  "framing",
  "missing-field",
  "extra-field",
  "type",
  "value",
  "key-order",
  "array-length",
  "body-kind",
  "sse-order",
  "sse-payload",
  "sse-length",
  "sse-completion",
  "settled",
  "step-error",
  "transport",
  "relation",
  "exchange-count"
)
export type DifferenceKind = typeof DifferenceKind.Type

export const Difference = Schema.Struct({
  kind: DifferenceKind,
  step: Schema.Number,
  exchange: Schema.Number,
  /** Operation id of the exchange (runs.get, …) or the step kind for step-level differences. */
  operation: Schema.String,
  /** JSON path inside the exchange: $.response.status, $.response.body.usage.total_tokens, … */
  path: Schema.String,
  /** The reference side's value (real gateway); absent for an extra field. */
  expected: Schema.optional(JsonValue),
  /** The candidate's value (emulator); absent for a missing field. */
  actual: Schema.optional(JsonValue)
})
export type Difference = typeof Difference.Type

/** What a difference is, regardless of which run produced it: how noise and the register match it. */
export const differenceSignature = (d: Difference): string => `${d.operation} ${d.kind} ${d.path.replace(/\[\d+\]/g, "[*]")}`
