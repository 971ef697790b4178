/**
 * A tiny recorder for live probes of the real gateway: sends one request over node:http (so the
 * response headers keep their wire order and casing), and renders request + raw response as
 * Markdown. The API key is replaced by a placeholder in everything recorded.
 */
import { request as httpRequest } from "node:http"

export interface ProbeTarget {
  readonly baseUrl: string
  readonly apiKey: string
  readonly fakeModelUrl: string
}

export interface ProbeRequest {
  readonly method: string
  readonly path: string
  readonly auth?: "key" | "none" | "wrong"
  readonly headers?: Readonly<Record<string, string>>
  /** A JSON value (sent with JSON.stringify) or a raw string body. */
  readonly body?: unknown
  readonly raw?: string
}

export interface ProbeResult {
  readonly status: number
  readonly reason: string
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: string
}

const WRONG_KEY = "wrong-key-0123456789abcdef"

export const send = (t: ProbeTarget, r: ProbeRequest): Promise<ProbeResult> =>
  new Promise((resolve, reject) => {
    const url = new URL(r.path, t.baseUrl)
    const headers: Record<string, string> = { ...(r.headers ?? {}) }
    const auth = r.auth ?? "key"
    if (auth === "key") headers["Authorization"] = `Bearer ${t.apiKey}`
    if (auth === "wrong") headers["Authorization"] = `Bearer ${WRONG_KEY}`
    const body = r.raw ?? (r.body === undefined ? undefined : JSON.stringify(r.body))
    if (body !== undefined && headers["Content-Type"] === undefined) headers["Content-Type"] = "application/json"
    const req = httpRequest(url, { method: r.method, headers }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => {
        const pairs: Array<readonly [string, string]> = []
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i] ?? "", res.rawHeaders[i + 1] ?? ""])
        resolve({
          status: res.statusCode ?? 0,
          reason: res.statusMessage ?? "",
          headers: pairs,
          body: Buffer.concat(chunks).toString("utf8")
        })
      })
      res.on("error", reject)
    })
    req.on("error", reject)
    if (body !== undefined) req.write(body)
    req.end()
  })

const hide = (t: ProbeTarget, s: string) => s.split(t.apiKey).join("<API_SERVER_KEY>")

const fence = (s: string) => {
  const ticks = s.includes("```") ? "````" : "```"
  return `${ticks}\n${s}\n${ticks}`
}

export const renderExchange = (t: ProbeTarget, title: string, r: ProbeRequest, res: ProbeResult, note?: string): string => {
  const headers: Record<string, string> = { ...(r.headers ?? {}) }
  const auth = r.auth ?? "key"
  if (auth === "key") headers["Authorization"] = "Bearer <API_SERVER_KEY>"
  if (auth === "wrong") headers["Authorization"] = `Bearer ${WRONG_KEY}`
  const body = r.raw ?? (r.body === undefined ? undefined : JSON.stringify(r.body))
  if (body !== undefined && headers["Content-Type"] === undefined) headers["Content-Type"] = "application/json"
  const reqText = [`${r.method} ${r.path} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join("\n") +
    (body === undefined ? "" : `\n\n${body}`)
  const resText = [`HTTP/1.1 ${res.status} ${res.reason}`, ...res.headers.map(([k, v]) => `${k}: ${v}`)].join("\n") +
    `\n\n${res.body}`
  return [`### ${title}`, "", ...(note === undefined ? [] : [note, ""]), "Request:", "", fence(reqText), "", "Response:", "", fence(hide(t, resText)), ""].join("\n")
}

/** POST to the fake model's admin plane (script, release, reset, journal). */
export const fakeModel = async (t: ProbeTarget, method: string, path: string, body?: unknown): Promise<unknown> => {
  const res = await fetch(`${t.fakeModelUrl}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } })
  })
  return res.json()
}

export interface JournalEntry {
  readonly seq: number
  readonly kind: string
  readonly status?: number
  readonly reply?: Record<string, unknown>
  readonly lastUser?: string
  readonly stream?: boolean
  readonly messageCount?: number
  readonly lastRole?: string
}

/** Model calls (main and housekeeping) the fake model saw after `fromSeq`. */
export const modelCalls = async (t: ProbeTarget, fromSeq: number): Promise<ReadonlyArray<JournalEntry>> => {
  const j = (await fakeModel(t, "GET", "/__admin/journal")) as { entries: ReadonlyArray<JournalEntry> }
  return j.entries.filter((e) => e.seq >= fromSeq && (e.kind === "main" || e.kind === "housekeeping"))
}

export const journalEnd = async (t: ProbeTarget): Promise<number> => {
  const j = (await fakeModel(t, "GET", "/__admin/journal")) as { entries: ReadonlyArray<JournalEntry> }
  return j.entries.length === 0 ? 0 : (j.entries[j.entries.length - 1]?.seq ?? 0) + 1
}

export const targetFromEnv = (): ProbeTarget => {
  const baseUrl = process.env["HERMES_BASE_URL"]
  const apiKey = process.env["API_SERVER_KEY"]
  const fakeModelUrl = process.env["FAKE_MODEL_URL"]
  if (baseUrl === undefined || apiKey === undefined || fakeModelUrl === undefined) {
    throw new Error("set HERMES_BASE_URL, API_SERVER_KEY and FAKE_MODEL_URL (the lines `oracle-runner up` prints)")
  }
  for (const u of [baseUrl, fakeModelUrl]) {
    if (new URL(u).hostname !== "127.0.0.1") throw new Error(`refusing to probe beyond loopback: ${u}`)
  }
  return { baseUrl, apiKey, fakeModelUrl }
}
