/**
 * How a replay recognizes a request: the same operation, method, path and query, the same body
 * (as JSON, key order ignored, after the same redaction the recorder applied), the same values of
 * the headers that change upstream's answer (Idempotency-Key, X-Hermes-Session-Id), and whether it
 * carried credentials at all (a recorded 401 answers only a request without them).
 */
import { Router } from "../http/Router.js"
import { routesFor } from "../RouteTable.js"
import { DEFAULT_PIN, features, isPin } from "../version/Pins.js"
import type { RecordedRequest } from "./Recording.js"

/** Request headers whose values take part in matching. */
export const MATCHED_HEADERS = ["idempotency-key", "x-hermes-session-id"] as const

/** Operation ids from the emulator's route table for the recorded release. */
export const operationNamer = (hermesVersion: string | null) => {
  const pin = hermesVersion !== null && isPin(hermesVersion) ? hermesVersion : DEFAULT_PIN
  const router = new Router(routesFor(features(pin)))
  return (method: string, path: string): string | null => {
    const match = router.match(method, path)
    return match._tag === "found" ? match.route.id : null
  }
}

/** JSON with object keys sorted, so key order never decides a match. */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`
  }
  return JSON.stringify(value) ?? "null"
}

const hasCredentials = (headers: Readonly<Record<string, string>>): boolean =>
  headers["authorization"] !== undefined || headers["x-api-key"] !== undefined

export const exchangeKey = (operation: string | null, request: RecordedRequest): string =>
  [
    operation ?? "-",
    request.method,
    request.path,
    request.query,
    hasCredentials(request.headers) ? "auth" : "no-auth",
    ...MATCHED_HEADERS.map((h) => `${h}=${request.headers[h] ?? ""}`),
    canonicalJson(request.body)
  ].join("\n")

/** Where two request bodies first differ: `messages[0].content: recorded "hi", got "hello"`. */
export const firstDifference = (recorded: unknown, got: unknown, at = "body"): string | undefined => {
  if (canonicalJson(recorded) === canonicalJson(got)) return undefined
  if (Array.isArray(recorded) && Array.isArray(got)) {
    for (let i = 0; i < Math.max(recorded.length, got.length); i++) {
      if (i >= recorded.length) return `${at}[${i}]: not recorded, got ${preview(got[i])}`
      if (i >= got.length) return `${at}[${i}]: recorded ${preview(recorded[i])}, missing`
      const d = firstDifference(recorded[i], got[i], `${at}[${i}]`)
      if (d !== undefined) return d
    }
  }
  if (isRecord(recorded) && isRecord(got)) {
    for (const k of [...new Set([...Object.keys(recorded), ...Object.keys(got)])].sort()) {
      if (!(k in got)) return `${at}.${k}: recorded ${preview(recorded[k])}, missing`
      if (!(k in recorded)) return `${at}.${k}: not recorded, got ${preview(got[k])}`
      const d = firstDifference(recorded[k], got[k], `${at}.${k}`)
      if (d !== undefined) return d
    }
  }
  return `${at}: recorded ${preview(recorded)}, got ${preview(got)}`
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v)

const preview = (v: unknown): string => {
  const text = JSON.stringify(v) ?? "undefined"
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}
