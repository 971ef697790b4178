/**
 * Hermes' aiohttp middlewares, outermost first: profile prefix, CORS, body limit, security headers.
 * Their order decides which answers carry which headers: only responses a handler returns get
 * the security headers; the CORS headers of an allowed origin go on every answer from inside the
 * CORS middleware (a handler's, the body limit's 413 and 400); the profile prefix's 404, the CORS
 * middleware's own 403 and preflight, and aiohttp's router errors (raised past every middleware)
 * get neither.
 */
import type { EmulatorConfigShape } from "../config/EmulatorConfig.js"
import { errorResponse } from "./Envelopes.js"
import { type EmuRequestHead, type EmuResponse, emptyResponse, withDefaultHeaders, withHeaders } from "./Exchange.js"
import { MAX_REQUEST_BYTES } from "./RequestBody.js"

export const SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ["Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"],
  ["Permissions-Policy", "camera=(), microphone=(), geolocation=()"],
  ["Strict-Transport-Security", "max-age=31536000; includeSubDomains"],
  ["X-Content-Type-Options", "nosniff"],
  ["X-Frame-Options", "DENY"],
  ["X-XSS-Protection", "0"],
  ["Referrer-Policy", "no-referrer"]
]

const CORS_BASE: ReadonlyArray<readonly [string, string]> = [
  ["Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS"],
  ["Access-Control-Allow-Headers", "Authorization, Content-Type, Idempotency-Key"]
]

/** The CORS headers for an allowed browser origin, or undefined (no Origin, or not allowed). */
export const corsHeadersFor = (
  config: EmulatorConfigShape,
  origin: string
): ReadonlyArray<readonly [string, string]> | undefined => {
  if (origin === "" || config.corsOrigins.length === 0) return undefined
  if (config.corsOrigins.includes("*")) {
    return [...CORS_BASE, ["Access-Control-Allow-Origin", "*"], ["Access-Control-Max-Age", "600"]]
  }
  if (!config.corsOrigins.includes(origin)) return undefined
  return [...CORS_BASE, ["Access-Control-Allow-Origin", origin], ["Vary", "Origin"], ["Access-Control-Max-Age", "600"]]
}

export const originAllowed = (config: EmulatorConfigShape, origin: string): boolean =>
  origin === "" || (config.corsOrigins.length > 0 && (config.corsOrigins.includes("*") || config.corsOrigins.includes(origin)))

/** The CORS middleware's own answer (403 or preflight), or undefined to go on. */
export const corsShortCircuit = (config: EmulatorConfigShape, req: EmuRequestHead): EmuResponse | undefined => {
  const origin = req.headers["origin"] ?? ""
  if (!originAllowed(config, origin)) return emptyResponse(403)
  if (req.method === "OPTIONS") {
    const cors = corsHeadersFor(config, origin)
    return cors === undefined ? emptyResponse(403) : emptyResponse(200, cors)
  }
  return undefined
}

/**
 * A prepared stream's headers are already on the wire when the middleware sees it, so an SSE
 * response carries only what its handler put in it (streamCorsHeaders).
 */
export const addCorsHeaders = (config: EmulatorConfigShape, req: EmuRequestHead, res: EmuResponse): EmuResponse => {
  if (res.body._tag === "sse") return res
  const cors = corsHeadersFor(config, req.headers["origin"] ?? "")
  return cors === undefined ? res : withHeaders(res, cors)
}

/**
 * The CORS headers a stream handler puts in its own headers before preparing the stream: upstream's
 * chat-completions and /v1/responses streams do; the runs event and session chat streams do not.
 */
export const streamCorsHeaders = (config: EmulatorConfigShape, req: EmuRequestHead): ReadonlyArray<readonly [string, string]> =>
  corsHeadersFor(config, req.headers["origin"] ?? "") ?? []

/** The body-limit middleware's Content-Length check for POST/PUT/PATCH. */
export const bodyLimitShortCircuit = (req: EmuRequestHead): EmuResponse | undefined => {
  if (!["POST", "PUT", "PATCH"].includes(req.method)) return undefined
  const cl = req.headers["content-length"]
  if (cl === undefined) return undefined
  if (!/^\s*[+-]?\d+\s*$/.test(cl)) {
    return errorResponse(400, "Invalid Content-Length header.", { code: "invalid_content_length" })
  }
  return Number(cl) > MAX_REQUEST_BYTES ? tooLarge() : undefined
}

export const tooLarge = (): EmuResponse => errorResponse(413, "Request body too large.", { code: "body_too_large" })

export const addSecurityHeaders = (res: EmuResponse): EmuResponse =>
  res.body._tag === "sse" ? res : withDefaultHeaders(res, SECURITY_HEADERS)
