/** The emulator behind a fetch-style function: web Request in, web Response out, no socket. */
import { Effect, type Runtime, Stream } from "effect"
import { bytesResponse } from "./BytesResponse.js"
import type { EmuRequest, EmuResponse } from "./Exchange.js"
import { parserRejection } from "./ParserLimits.js"

/** The statuses fetch's Response refuses a body for. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304])

/** `chunked`: the body was a stream, which fetch sends without a Content-Length (Transfer-Encoding: chunked). */
export const toEmuRequest = async (request: Request, chunked = false): Promise<EmuRequest> => {
  const url = new URL(request.url)
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value
  })
  const body = new Uint8Array(await request.arrayBuffer())
  if (chunked && !("content-length" in headers)) headers["transfer-encoding"] = "chunked"
  else if (!("content-length" in headers) && body.byteLength > 0) headers["content-length"] = String(body.byteLength)
  const aborted = new Promise<void>((resolve) => {
    if (request.signal.aborted) resolve()
    else request.signal.addEventListener("abort", () => resolve(), { once: true })
  })
  return { method: request.method.toUpperCase(), path: url.pathname, query: url.searchParams, headers, body, aborted }
}

/**
 * `aborted`: the request's signal, for a stream to end when it aborts (a reader that cancels ends
 * it too, through the ReadableStream). Absent for a request made without a signal.
 */
export const toWebResponse = <R>(res: EmuResponse, runtime: Runtime.Runtime<R>, aborted?: Promise<void>): Response => {
  const headers = new Headers()
  for (const [k, v] of res.headers) headers.append(k, v)
  switch (res.body._tag) {
    case "drop":
      throw new TypeError("fetch failed: the emulator dropped the connection (injected fault)")
    case "bytes": {
      const bytes = res.body.bytes
      if (bytes.byteLength === 0) return new Response(null, { status: res.status, headers })
      // a status that may carry no body is the real Response's TypeError to raise
      return NULL_BODY_STATUSES.has(res.status)
        ? new Response(bytes as Uint8Array<ArrayBuffer>, { status: res.status, headers })
        : bytesResponse(bytes, { status: res.status, headers })
    }
    case "sse": {
      const limit = res.body.disconnectAfter
      const cut = limit === undefined ? res.body.frames : res.body.frames.pipe(Stream.take(limit))
      const frames = aborted === undefined ? cut : cut.pipe(Stream.interruptWhen(Effect.promise(() => aborted)))
      const encoder = new TextEncoder()
      const stream = Stream.toReadableStreamRuntime(Stream.map(frames, (f) => encoder.encode(f)), runtime)
      return new Response(stream, { status: res.status, headers })
    }
  }
}

const NEVER: Promise<void> = new Promise<void>(() => {})
const encoder = new TextEncoder()

/**
 * The common call `fetch(url, { method, headers: {...}, body: "..." })` read straight into an
 * EmuRequest, without building a web Request (its streams and signal cost more than the emulator's
 * answer to a test's typical request); undefined for anything else, which Request turns into the same request.
 */
export const directRequest = (input: Request | string | URL, init: RequestInit | undefined): EmuRequest | undefined => {
  if (input instanceof Request || init?.signal != null) return undefined
  const rawHeaders = init?.headers
  if (rawHeaders !== undefined && (rawHeaders instanceof Headers || Array.isArray(rawHeaders))) return undefined
  const rawBody = init?.body
  if (rawBody !== undefined && rawBody !== null && typeof rawBody !== "string") return undefined
  const method = (init?.method ?? "GET").toUpperCase()
  // a body on GET/HEAD is Request's TypeError to raise
  if (typeof rawBody === "string" && (method === "GET" || method === "HEAD")) return undefined
  const url = new URL(String(input))
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(rawHeaders ?? {})) headers[name.toLowerCase()] = trimmedHeaderValue(String(value))
  const body = rawBody === undefined || rawBody === null ? new Uint8Array(0) : encoder.encode(rawBody)
  // what fetch adds on its own: a string body's type, and its length
  if (typeof rawBody === "string" && !("content-type" in headers)) headers["content-type"] = "text/plain;charset=UTF-8"
  if (!("content-length" in headers) && body.byteLength > 0) headers["content-length"] = String(body.byteLength)
  return { method, path: url.pathname, query: url.searchParams, headers, body, aborted: NEVER }
}

/**
 * A request whose headers aiohttp's parser refuses (ParserLimits: a field over 8190 bytes) gets the
 * parser's 400 in process too: the gateway refuses it before any route, whatever carried it. A
 * header record cannot hold a repeated name, so only the size limit applies here.
 */
const parserRefusal = (req: EmuRequest): Response | undefined => {
  const raw: Array<string> = []
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) raw.push(name, value)
  const message = parserRejection(raw)
  if (message === undefined) return undefined
  const body = encoder.encode(message)
  const headers = { "content-type": "text/plain; charset=utf-8", "content-length": String(body.byteLength), date: new Date().toUTCString() }
  return new Response(body, { status: 400, headers })
}

export const makeFetch =
  <R>(respond: (req: EmuRequest) => EmuResponse | Promise<EmuResponse>, runtime: Runtime.Runtime<R>) =>
  async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const direct = directRequest(input, init)
    const req = direct ?? (await toEmuRequest(input instanceof Request ? input : new Request(input, init), init?.body instanceof ReadableStream))
    const refused = parserRefusal(req)
    if (refused !== undefined) return refused
    return toWebResponse(await respond(req), runtime, req.aborted === NEVER ? undefined : req.aborted)
  }

/**
 * A header value without its leading and trailing HTTP whitespace (tab, space, CR, LF), as fetch's
 * Headers keep it, and as the real gateway's HTTP parser hands it to Hermes.
 */
const trimmedHeaderValue = (value: string): string => value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "")
