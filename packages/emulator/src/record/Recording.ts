/**
 * A recording of an application's traffic to a real Hermes gateway: a directory with
 * `recording.json` (where and when) and one `exchanges/NNNN-….json` per exchange, so a review can
 * read them one by one. Bodies are text exactly as sent (JSON request bodies parsed, for matching
 * and reading); a server-sent event stream keeps each chunk with its time after the headers, so a
 * replay streams at the recorded pace. Credentials never reach the files (see journal/Redaction.ts).
 */
import { Schema } from "effect"

export const RECORDING_FORMAT = "hermetic-recording"

export const RecordingManifest = Schema.Struct({
  format: Schema.Literal(RECORDING_FORMAT),
  version: Schema.Literal(1),
  /** The upstream's origin (credentials in the URL are never kept). */
  upstream: Schema.String,
  /** The release the upstream reported on /health when recording started, if it did. */
  hermesVersion: Schema.NullOr(Schema.String),
  recordedAt: Schema.String
})
export type RecordingManifest = typeof RecordingManifest.Type

const Headers = Schema.Array(Schema.Tuple(Schema.String, Schema.String))

export const StreamChunk = Schema.Struct({
  /** Milliseconds after the response headers arrived. */
  atMs: Schema.Number,
  text: Schema.String
})

export const RecordedRequest = Schema.Struct({
  method: Schema.String,
  path: Schema.String,
  /** The query string without "?" ("" when none). */
  query: Schema.String,
  /** Lower-cased names, secrets redacted. */
  headers: Schema.Record({ key: Schema.String, value: Schema.String }),
  /** Parsed JSON when the body is JSON, else its text; null when empty. Redacted. */
  body: Schema.Unknown
})
export type RecordedRequest = typeof RecordedRequest.Type

export const RecordedResponse = Schema.Struct({
  status: Schema.Number,
  /** As the upstream sent them (hop-by-hop headers left out), secrets redacted. */
  headers: Headers,
  /** Milliseconds from the request to the response headers. */
  headersAtMs: Schema.Number,
  /** The whole body as text (for a non-stream response). */
  body: Schema.optional(Schema.String),
  /** The chunks of an event stream, with their timing. */
  stream: Schema.optional(Schema.Array(StreamChunk)),
  /** True when the upstream or the client cut the response short. */
  incomplete: Schema.optional(Schema.Boolean)
})
export type RecordedResponse = typeof RecordedResponse.Type

export const RecordedExchange = Schema.Struct({
  seq: Schema.Number,
  /** Milliseconds after the recording started. */
  startedAtMs: Schema.Number,
  /** The upstream operation (`chat.completions`), as the emulator's route table names it; null when unknown. */
  operation: Schema.NullOr(Schema.String),
  request: RecordedRequest,
  response: RecordedResponse
})
export type RecordedExchange = typeof RecordedExchange.Type

/** `0007-POST-v1-chat-completions.json` */
export const exchangeFileName = (e: { readonly seq: number; readonly request: { readonly method: string; readonly path: string } }): string =>
  `${String(e.seq).padStart(4, "0")}-${e.request.method}-${e.request.path.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 80) || "root"}.json`
