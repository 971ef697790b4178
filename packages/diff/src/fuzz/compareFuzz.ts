/**
 * A fuzz answer of the emulator against the real gateway's: status, the headers that mean
 * something (transport headers out), and the body with generated ids and clock readings masked.
 * A difference is a divergence unless a known rule explains it; each rule says why.
 */
import type { FuzzCase } from "./FuzzCase.js"
import type { RawAnswer } from "../rawHttp/sendRaw.js"

const TRANSPORT = new Set(["date", "server", "connection", "keep-alive", "transfer-encoding", "content-length"])

const MASKS: ReadonlyArray<readonly [RegExp, string]> = [
  [/api_\d+_[0-9a-f]{8}/g, "<session-id>"],
  [/\b(run|resp|chatcmpl|msg|call)_[0-9A-Za-z-]{6,}/g, "<$1-id>"],
  [/"id": "[0-9a-f]{12}"/g, "\"id\": \"<job-id>\""],
  [/\b1[0-9]{9}(\.[0-9]+)?\b/g, "<time>"],
  [/\b20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:.]+([+-][0-9:]+|Z)?/g, "<iso-time>"],
  // /health/detailed reports facts of the host it runs on
  [/"(used_percent|free_bytes|pid)": [0-9.]+/g, "\"$1\": <host-fact>"]
]

export interface NormalizedAnswer {
  readonly status: number
  readonly statusLine: string
  readonly headers: ReadonlyArray<string>
  readonly body: string
}

export const normalizeAnswer = (a: RawAnswer): NormalizedAnswer => ({
  status: a.status,
  statusLine: a.statusLine,
  headers: a.headers.filter(([k]) => !TRANSPORT.has(k.toLowerCase())).map(([k, v]) => `${k.toLowerCase()}: ${v}`),
  body: MASKS.reduce((b, [re, to]) => b.replace(re, to), a.body)
})

export interface KnownDivergence {
  readonly id: string
  readonly reason: string
  /** Whether this rule explains the difference between the two answers. */
  readonly explains: (c: FuzzCase, reference: NormalizedAnswer, emulator: NormalizedAnswer) => boolean
}

const isParserRejection = (a: NormalizedAnswer) => a.status === 400 && a.statusLine.startsWith("HTTP/1.0 400")

/** Every explained difference; a difference none of these explains is a divergence. */
export const KNOWN_DIVERGENCES: ReadonlyArray<KnownDivergence> = [
  {
    id: "http-parser-rejection-text",
    reason:
      "a request the HTTP parser itself refuses (bad header bytes or tokens, a lying Content-Length, a bad method): both answer 400 before any route, " +
      "but aiohttp writes its parser message as text/plain over HTTP/1.0 and node:http a bare 400; the status is compared, the parser's wording is not emulated",
    explains: (_c, ref, emu) => isParserRejection(ref) && emu.status === 400
  },
  {
    id: "header-size-limits",
    reason:
      "a header over aiohttp's 8190-byte line limit: aiohttp answers its parser's 400, node:http its own 431/400 for headers over its limit; " +
      "both refuse before any route",
    explains: (c, ref, emu) => c.family === "long-header" && ref.status === 400 && (emu.status === 431 || emu.status === 400)
  }
]

export type Verdict =
  | { readonly _tag: "equal" }
  | { readonly _tag: "explained"; readonly rule: string }
  | { readonly _tag: "divergent"; readonly reference: NormalizedAnswer; readonly emulator: NormalizedAnswer }

export const compareAnswers = (c: FuzzCase, reference: RawAnswer, emulator: RawAnswer): Verdict => {
  const ref = normalizeAnswer(reference)
  const emu = normalizeAnswer(emulator)
  if (ref.status === emu.status && ref.body === emu.body && JSON.stringify(ref.headers) === JSON.stringify(emu.headers)) {
    return { _tag: "equal" }
  }
  const rule = KNOWN_DIVERGENCES.find((k) => k.explains(c, ref, emu))
  return rule === undefined ? { _tag: "divergent", reference: ref, emulator: emu } : { _tag: "explained", rule: rule.id }
}
