/** Turning live requests into their recorded form, shared by the recorder and the replayer. */
import type * as http from "node:http"
import type { Redactor } from "../journal/Redaction.js"
import type { RecordedRequest } from "./Recording.js"

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

export const readBody = (req: http.IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => resolve(Buffer.concat(chunks)))
    req.on("error", reject)
  })

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
