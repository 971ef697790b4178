/** Turning live requests into their recorded form, shared by the recorder and the replayer. */
import type * as http from "node:http"
import type { Redactor } from "../journal/Redaction.js"
import type { RecordedRequest } from "./Recording.js"
import { MAX_REQUEST_BYTES } from "../http/RequestBody.js"
import { bearerCheck } from "../http/Auth.js"
import { DEFAULT_PIN, features, isPin } from "../version/Pins.js"

/** Headers that describe one connection, not the exchange: never recorded nor replayed. */
export const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "host",
  "content-length"
])

export const headerMap = (req: http.IncomingMessage): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v
  return out
}

/** A body over the limit `serve` applies: what the recorder and the replayer answer 413 to. */
export const TOO_LARGE = Symbol("tooLarge")

/**
 * The request body, up to `serve`'s limit (MAX_REQUEST_BYTES): a declared Content-Length over it
 * is refused before any byte is read, and a body that grows past it stops being kept.
 */
export const readBody = (req: http.IncomingMessage): Promise<Buffer | typeof TOO_LARGE> => {
  const declared = Number(req.headers["content-length"] ?? "0")
  if (declared > MAX_REQUEST_BYTES) return Promise.resolve(TOO_LARGE)
  return new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    req.on("data", (c: Buffer) => {
      size += c.byteLength
      if (size > MAX_REQUEST_BYTES) {
        chunks.length = 0
        // the rest is discarded as it arrives; the answer goes out at once
        resolve(TOO_LARGE)
      } else chunks.push(c)
    })
    req.on("end", () => resolve(size > MAX_REQUEST_BYTES ? TOO_LARGE : Buffer.concat(chunks)))
    req.on("error", reject)
  })
}

/** The 413 `serve` answers (http/Middleware.ts), with the connection closed after it. */
export const answerTooLarge = (res: http.ServerResponse): void => {
  res.writeHead(413, { "content-type": "application/json; charset=utf-8", connection: "close" })
  res.end(JSON.stringify({ error: { message: "Request body too large.", type: "invalid_request_error", param: null, code: "body_too_large" } }))
}

/**
 * The key of a recorder or replayer (`--api-key`, "" for none), checked as `serve` checks its own:
 * a request without `Authorization: Bearer KEY` gets the 401 of the recorded release and goes no
 * further (never upstream, never into the recording). True when the request may go on.
 */
export const keyGate = (apiKey: string, hermesVersion: string | null) => {
  const failure = features(hermesVersion !== null && isPin(hermesVersion) ? hermesVersion : DEFAULT_PIN).authFailure
  return (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    if (bearerCheck(apiKey, req.headers["authorization"]) === "allowed") return true
    res.writeHead(401, { "content-type": "application/json; charset=utf-8" })
    res.end(JSON.stringify({ error: { message: failure.message, type: failure.type, code: failure.code } }))
    return false
  }
}

export const splitUrl = (url: string): { path: string; query: string } => {
  const q = url.indexOf("?")
  return q < 0 ? { path: url, query: "" } : { path: url.slice(0, q), query: url.slice(q + 1) }
}

export const recordedRequest = (method: string, url: string, headers: Readonly<Record<string, string>>, body: Buffer, redact: Redactor): RecordedRequest => {
  const text = body.toString("utf8")
  let parsed: unknown = text === "" ? null : redact.text(text)
  if (text !== "") {
    try {
      parsed = redact.json(JSON.parse(text))
    } catch {
      // not JSON: the redacted text
    }
  }
  const kept: Record<string, string> = {}
  for (const [k, v] of Object.entries(redact.headers(headers))) if (!HOP_BY_HOP.has(k)) kept[k] = v
  return { method: method.toUpperCase(), ...splitUrl(url), headers: kept, body: parsed }
}

export const isEventStream = (headers: ReadonlyArray<readonly [string, string]>): boolean =>
  headers.some(([k, v]) => k.toLowerCase() === "content-type" && v.toLowerCase().startsWith("text/event-stream"))
