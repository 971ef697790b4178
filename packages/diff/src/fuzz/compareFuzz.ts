/**
 * A fuzz answer of the emulator against the real gateway's: status, the headers that mean
 * something (transport headers out), and the body with server-made ids tokenized by the
 * normalizer's own id rules and clock readings masked.
 * A difference is a divergence unless a known rule explains it; each rule says why.
 */
import { IdTokens } from "../normalize/IdTokens.js"
import type { FuzzCase } from "./FuzzCase.js"
import type { RawAnswer } from "../rawHttp/sendRaw.js"

const TRANSPORT = new Set(["date", "server", "connection", "keep-alive", "transfer-encoding", "content-length"])

/**
 * What the scenario normalizer's rules do not cover in a text body: its server-made ids are
 * tokenized by the same ID_RULES (IdTokens), the rest is masked here. Epoch and ISO clock readings
 * (the normalizer compares those by their relations inside JSON; a fuzz answer is one body, so they
 * are masked), and /health/detailed's facts of the host it runs on.
 */
const MASKS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b1[0-9]{9}(\.[0-9]+)?\b/g, "<time>"],
  [/\b20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:.]+([+-][0-9:]+|Z)?/g, "<iso-time>"],
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
  // one tokenizer per answer: the same id twice in a body is the same token on both sides
  body: MASKS.reduce((b, [re, to]) => b.replace(re, to), new IdTokens().tokenize(a.body))
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
