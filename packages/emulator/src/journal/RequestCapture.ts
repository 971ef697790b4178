/**
 * A request as the journal keeps it when bodies are on: headers and body with secrets redacted,
 * the body cut at a byte bound. A body that fits and parses as JSON is kept as JSON (so tests can
 * match its fields); anything else is kept as text.
 */
import type { Redactor } from "./Redaction.js"

export interface CapturedRequest {
  readonly headers: Readonly<Record<string, string>>
  /** Parsed JSON, or the (possibly cut) text; null for an empty body. */
  readonly body: unknown
  /** The body's full size in bytes, before any cut. */
  readonly bodyBytes: number
  /** True when the body was longer than the bound and only its start is kept (as text). */
  readonly truncated: boolean
}

const decoder = new TextDecoder("utf-8", { fatal: false })

export const captureRequest = (
  headers: Readonly<Record<string, string | undefined>>,
  body: Uint8Array,
  maxBytes: number,
  redact: Redactor
): CapturedRequest => {
  const text = decoder.decode(body)
  const truncated = body.byteLength > maxBytes
  let kept: unknown = null
  if (text !== "" && !truncated) {
    try {
      kept = redact.json(JSON.parse(text))
    } catch {
      kept = redact.text(text)
    }
  } else if (truncated) {
    // redact the whole text before cutting it, so a secret across the cut leaves no prefix behind
    kept = cutToBytes(redact.text(text), maxBytes)
  }
  return { headers: redact.headers(headers), body: kept, bodyBytes: body.byteLength, truncated }
}

const encoder = new TextEncoder()

/** The longest prefix of `text` that fits in `maxBytes` of UTF-8. */
const cutToBytes = (text: string, maxBytes: number): string => {
  const bytes = encoder.encode(text)
  return bytes.byteLength <= maxBytes ? text : decoder.decode(bytes.subarray(0, maxBytes)).replace(/\uFFFD$/, "")
}

/** The session a request names: X-Hermes-Session-Id, a sessions path, or a top-level `session_id`. */
export const requestSession = (path: string, headers: Readonly<Record<string, string | undefined>>, body: unknown): string | null => {
  const header = headers["x-hermes-session-id"]?.trim()
  if (header !== undefined && header !== "") return header
  const inPath = /^\/api\/sessions\/([^/]+)/.exec(path)
  if (inPath?.[1] !== undefined) {
    try {
      return decodeURIComponent(inPath[1])
    } catch {
      return inPath[1]
    }
  }
  if (body !== null && typeof body === "object" && !Array.isArray(body)) {
    const id = (body as Record<string, unknown>)["session_id"]
    if (typeof id === "string" && id.trim() !== "") return id.trim()
  }
  return null
}
