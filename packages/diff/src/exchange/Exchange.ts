/**
 * One HTTP exchange as the differ records it: the request actually sent (references resolved, the
 * API key never written down) and the response with its body as the exact text received, so a
 * cassette keeps key order, spacing and number formats byte for byte.
 */
import { Schema } from "effect"

export const WireRequest = Schema.Struct({
  method: Schema.String,
  /** Path and query as sent. */
  path: Schema.String,
  /** Headers the scenario set (lower-case names); auth is described by `auth`, never by the key. */
  headers: Schema.Record({ key: Schema.String, value: Schema.String }),
  auth: Schema.Literal("key", "none", "wrong"),
  /** The body text as sent, if any. */
  body: Schema.optional(Schema.String)
})
export type WireRequest = typeof WireRequest.Type

export const ResponseBody = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("empty") }),
  Schema.Struct({ kind: Schema.Literal("json"), text: Schema.String }),
  Schema.Struct({ kind: Schema.Literal("text"), text: Schema.String }),
  Schema.Struct({
    kind: Schema.Literal("sse"),
    text: Schema.String,
    /** false when the read stopped at the frame bound or the read deadline, not at the stream's end. */
    complete: Schema.Boolean,
    stoppedBy: Schema.optional(Schema.Literal("end", "max-frames", "deadline", "disconnect")),
    /** Per frame, milliseconds from the response's headers to the blank line that closed it (absent in older cassettes). */
    frameMs: Schema.optional(Schema.Array(Schema.Number))
  })
)
export type ResponseBody = typeof ResponseBody.Type

/**
 * The answer's head exactly as it came over a socket, which fetch hides (it lower-cases and sorts
 * header names and decodes the framing). Only the raw HTTP client (rawHttp/) records it.
 */
export const ResponseHead = Schema.Struct({
  /** "HTTP/1.1 200 OK": version, code and reason phrase. */
  statusLine: Schema.String,
  /** Header names in wire order, with their casing. */
  headerNames: Schema.Array(Schema.String),
  /** How the body was delimited. */
  framing: Schema.Literal("content-length", "chunked", "close", "none")
})
export type ResponseHead = typeof ResponseHead.Type

export const WireResponse = Schema.Struct({
  status: Schema.Number,
  /** Header list in received order; names lower-cased (HTTP header names are case-insensitive). */
  headers: Schema.Array(Schema.Tuple(Schema.String, Schema.String)),
  body: ResponseBody,
  /** Present when the exchange went over the raw HTTP client (`oracle wire`, `oracle fuzz`). */
  head: Schema.optional(ResponseHead)
})
export type WireResponse = typeof WireResponse.Type

export const Exchange = Schema.Struct({
  request: WireRequest,
  /** Absent when the connection failed (then `transportError` says how). */
  response: Schema.optional(WireResponse),
  transportError: Schema.optional(Schema.String)
})
export type Exchange = typeof Exchange.Type
