/**
 * The emulator's own request/response values. Both adapters (node:http with a socket, and the
 * fetch-style handler with none) translate to and from these, so every route is written once.
 */
import type { Effect, Stream } from "effect"
import { pyDumps } from "../python/index.js"

/** A request before its body is read: what the middlewares and the auth gate decide on. */
export interface EmuRequestHead {
  readonly method: string
  /** Path as the client sent it (percent-encoded), without the query string. */
  readonly path: string
  readonly query: URLSearchParams
  /** Lower-cased header names; repeated headers joined with ", " as Node does. */
  readonly headers: Readonly<Record<string, string | undefined>>
  /** Set when the client closes the connection before the response ends (the adapters' SSE writers). */
  readonly aborted: Promise<void>
}

/** The request body as far as it was read: reading stops at the size limit (aiohttp's client_max_size). */
export interface RequestBodyRead {
  readonly bytes: Uint8Array
  /** More than the limit arrived; `bytes` is then empty (nothing past the limit is buffered). */
  readonly exceeded: boolean
}

/** Reads the body once, on demand: a request answered before its handler runs is never buffered. */
export type BodyReader = Effect.Effect<RequestBodyRead>

export interface EmuRequest extends EmuRequestHead {
  readonly body: Uint8Array
  readonly bodyExceeded?: boolean
}

/**
 * A head and its body as one request. The head's own fields are delegated, not copied: a socket's
 * head makes its query and `aborted` only when read (NodeAdapter), and a spread would lose them.
 */
class HeadWithBody implements EmuRequest {
  constructor(readonly head: EmuRequestHead, readonly body: Uint8Array, readonly bodyExceeded: boolean) {}
  get method() {
    return this.head.method
  }
  get path() {
    return this.head.path
  }
  get headers() {
    return this.head.headers
  }
  get query() {
    return this.head.query
  }
  get aborted() {
    return this.head.aborted
  }
}

export const withRequestBody = (head: EmuRequestHead, body: Uint8Array, exceeded = false): EmuRequest =>
  new HeadWithBody(head, body, exceeded)

export type EmuBody =
  | { readonly _tag: "bytes"; readonly bytes: Uint8Array }
  /**
   * An SSE stream; a fault may cut the connection after `disconnectAfter` frames. The adapter that
   * writes it interrupts the stream when its client goes away (the socket closes, the reader
   * cancels, the request's signal aborts), so a stream's finalizers are where a route notices: a
   * route does not wait on `aborted` itself (an `Effect.promise` per stream kept ~75 KB of it in
   * V8's old space until a full collection).
   */
  | { readonly _tag: "sse"; readonly frames: Stream.Stream<string>; readonly disconnectAfter?: number }
  /** A fault: the connection closes and nothing is sent. */
  | { readonly _tag: "drop" }

export interface EmuResponse {
  readonly status: number
  /** Ordered header list; names keep the casing aiohttp sends. */
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: EmuBody
}

const encoder = new TextEncoder()
const EMPTY = new Uint8Array(0)

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8"
export const TEXT_CONTENT_TYPE = "text/plain; charset=utf-8"

/** aiohttp's `web.json_response(data, status, headers)`. */
export const jsonResponse = (
  data: unknown,
  status = 200,
  headers: ReadonlyArray<readonly [string, string]> = []
): EmuResponse => ({
  status,
  // aiohttp builds the response from the given headers, then sets Content-Type after them
  headers: [...headers, ["Content-Type", JSON_CONTENT_TYPE]],
  body: { _tag: "bytes", bytes: encoder.encode(pyDumps(data)) }
})

/** A JSON body already encoded the Python way (a stored status answered verbatim). */
export const jsonTextResponse = (text: string, status = 200): EmuResponse => ({
  status,
  headers: [["Content-Type", JSON_CONTENT_TYPE]],
  body: { _tag: "bytes", bytes: encoder.encode(text) }
})

export const textResponse = (
  text: string,
  status: number,
  headers: ReadonlyArray<readonly [string, string]> = []
): EmuResponse => ({
  status,
  headers: [["Content-Type", TEXT_CONTENT_TYPE], ...headers],
  body: { _tag: "bytes", bytes: encoder.encode(text) }
})

/** A bodyless aiohttp `web.Response(status=...)`. */
export const emptyResponse = (status: number, headers: ReadonlyArray<readonly [string, string]> = []): EmuResponse => ({
  status,
  headers,
  body: { _tag: "bytes", bytes: EMPTY }
})

export const sseResponse = (
  frames: Stream.Stream<string>,
  headers: ReadonlyArray<readonly [string, string]> = []
): EmuResponse => ({
  status: 200,
  headers: [["Content-Type", "text/event-stream"], ["Cache-Control", "no-cache"], ["X-Accel-Buffering", "no"], ...headers],
  body: { _tag: "sse", frames }
})

export const withHeaders = (res: EmuResponse, extra: ReadonlyArray<readonly [string, string]>): EmuResponse => ({
  ...res,
  headers: [...res.headers, ...extra]
})

/**
 * Whether two header names are the same, ignoring case. Names of another length are told apart
 * without lower-casing either: a response's headers are looked through several times per request,
 * and `toLowerCase` on each was a measurable part of a GET.
 */
export const sameHeaderName = (a: string, b: string): boolean => a.length === b.length && a.toLowerCase() === b.toLowerCase()

/** Adds each header only when the response does not already carry it (aiohttp `setdefault`). */
export const withDefaultHeaders = (res: EmuResponse, defaults: ReadonlyArray<readonly [string, string]>): EmuResponse => {
  // a response carries a handful of headers: scanning them beats building a Set on every answer
  const headers = res.headers.slice()
  for (const entry of defaults) if (!res.headers.some(([k]) => sameHeaderName(k, entry[0]))) headers.push(entry)
  return { ...res, headers }
}

export const header = (req: EmuRequest, name: string): string | undefined => req.headers[name.toLowerCase()]
