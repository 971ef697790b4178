/**
 * Connection probes: raw bytes played in steps on ONE connection, to see how a server ends (or
 * keeps) it — what `oracle wire`'s one-request-per-connection scenarios cannot show. Each step
 * writes its bytes, then records the answers that came and whether the server had ended the
 * connection (FIN or reset). The probes aim at the keep-alive decisions of an HTTP server: an
 * answer given while the body is still coming (keep-alive, `Connection: close`, HTTP/1.0,
 * chunked), keep-alive after a complete body, and Content-Length values the parser refuses.
 *
 * Recording (live) waits for quiet; a replay waits for what the recording holds (so many answers,
 * then the end, or a short grace in which no end may come), which keeps it fast and fixed.
 */
import * as net from "node:net"
import { type Framing, framingOf, headerValue, parseHead } from "../rawHttp/rawHead.js"

export interface ConnectionProbe {
  readonly name: string
  /** What the probe decides. */
  readonly description: string
  /** Each step's bytes, latin1; `{{KEY}}` stands for the API key. */
  readonly steps: ReadonlyArray<string>
  /**
   * A divergence-register entry that explains the answers' differences: then only each answer's
   * status code and the connection's end are compared.
   */
  readonly registered?: string
}

export interface ProbeAnswer {
  readonly statusLine: string
  /** In wire order; the Date header's value is left out (it is the clock's). */
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly framing: Framing
  readonly body: string
}

export interface StepOutcome {
  /** The answers that came after this step's bytes were written. */
  readonly answers: ReadonlyArray<ProbeAnswer>
  /** Whether the server had ended the connection by the step's end. */
  readonly ended: boolean
}

export const KEY_PLACEHOLDER = "{{KEY}}"

const CRLF = "\r\n"
const head = (...lines: ReadonlyArray<string>) => `${lines.join(CRLF)}${CRLF}${CRLF}`
const HOST = "Host: 127.0.0.1"
const x = (n: number) => "x".repeat(n)
const health11 = head("GET /health HTTP/1.1", HOST)

/** A session chat of an unknown session with one X-Hermes-Session-Key line per key, then closed. */
const sessionChatWithKeys = (...keys: ReadonlyArray<string>) =>
  head(
    "POST /api/sessions/missing/chat HTTP/1.1",
    HOST,
    `Authorization: Bearer ${KEY_PLACEHOLDER}`,
    ...keys.map((k) => `X-Hermes-Session-Key: ${k}`),
    "Content-Type: application/json",
    "Content-Length: 2",
    "Connection: close"
  ) + "{}"

/** Both parsers refuse the request with a 400; aiohttp's is worded text over HTTP/1.0, node:http's bare. */
const PARSER_REJECTION = "http-parser-rejection-text"

export const CONNECTION_PROBES: ReadonlyArray<ConnectionProbe> = [
  {
    name: "early 404, keep-alive, body finished after the answer",
    description: "an unknown route answered while 1000 of 2000 body bytes are in; the rest sent later, then a GET on the same connection",
    steps: [head("POST /nonexistent HTTP/1.1", HOST, "Content-Length: 2000") + x(1000), x(1000) + health11]
  },
  {
    name: "early 404, Connection: close, body finished after the answer",
    description: "the same with Connection: close: is the connection kept until the body ends, and closed then (the GET unanswered)?",
    steps: [head("POST /nonexistent HTTP/1.1", HOST, "Connection: close", "Content-Length: 2000") + x(1000), x(1000) + health11]
  },
  {
    name: "early 404 over HTTP/1.0, body finished after the answer",
    description: "HTTP/1.0 without keep-alive: the answer's status line and Connection, the connection kept until the body ends, then closed",
    steps: [head("POST /nonexistent HTTP/1.0", HOST, "Content-Length: 2000") + x(1000), x(1000) + health11]
  },
  {
    name: "early 404, chunked, Connection: close, last chunk after the answer",
    description: "a chunked upload answered after its first chunk, with Connection: close; the last chunk sent later",
    steps: [head("POST /nonexistent HTTP/1.1", HOST, "Connection: close", "Transfer-Encoding: chunked") + `3e8${CRLF}${x(1000)}${CRLF}`, `0${CRLF}${CRLF}` + health11]
  },
  {
    name: "early 401 (runs without a key), keep-alive, body finished after the answer",
    description: "a missing key answered while the body is half in; the rest sent later, then a GET on the same connection",
    steps: [head("POST /v1/runs HTTP/1.1", HOST, "Content-Type: application/json", "Content-Length: 2000") + x(1000), x(1000) + health11]
  },
  {
    name: "complete body, keep-alive, then a second request",
    description: "a stop of an unknown run with its whole body: the connection kept, the next GET answered",
    steps: [head("POST /v1/runs/run_missing/stop HTTP/1.1", HOST, `Authorization: Bearer ${KEY_PLACEHOLDER}`, "Content-Length: 2") + "{}", health11]
  },
  {
    name: "complete body, Connection: close",
    description: "an unknown route with its whole body and Connection: close: answered, then closed",
    steps: [head("POST /nonexistent HTTP/1.1", HOST, "Connection: close", "Content-Length: 5") + "hello"]
  },
  {
    name: "HTTP/1.0 GET",
    description: "HTTP/1.0 without keep-alive: the answer's status line and Connection, then the close",
    steps: [head("GET /health HTTP/1.0", HOST)]
  },
  {
    name: "HTTP/1.0 GET with Connection: keep-alive, twice",
    description: "HTTP/1.0 asking for keep-alive: is the connection kept for a second request?",
    steps: [head("GET /health HTTP/1.0", HOST, "Connection: keep-alive"), head("GET /health HTTP/1.0", HOST, "Connection: keep-alive")]
  },
  {
    name: "a session key sent twice, each within the length limit",
    description: "two X-Hermes-Session-Key lines of 200 characters on a session chat of an unknown session: aiohttp reads the first (the 256-character check passes, the missing session answers 404), where a join of both would be too long",
    steps: [sessionChatWithKeys("a".repeat(200), "b".repeat(200))]
  },
  {
    name: "a session key sent twice, only the second over the length limit",
    description: "the first X-Hermes-Session-Key line short, the second 300 characters: the first is the key, so the missing session answers 404",
    steps: [sessionChatWithKeys("b", "a".repeat(300))]
  },
  {
    name: "a session key sent twice, only the first over the length limit",
    description: "the first X-Hermes-Session-Key line 300 characters, the second short: the first is the key, refused as too long (400)",
    steps: [sessionChatWithKeys("a".repeat(300), "b")]
  },
  {
    name: "Content-Length +5",
    description: "a signed Content-Length on an authorized POST: refused by the parser or by the body-limit middleware, and how the connection ends",
    registered: PARSER_REJECTION,
    steps: [head("POST /v1/runs HTTP/1.1", HOST, `Authorization: Bearer ${KEY_PLACEHOLDER}`, "Content-Type: application/json", "Content-Length: +5") + "{}   "]
  },
  {
    name: "Content-Length 1.5",
    description: "a fractional Content-Length on an authorized POST",
    registered: PARSER_REJECTION,
    steps: [head("POST /v1/runs HTTP/1.1", HOST, `Authorization: Bearer ${KEY_PLACEHOLDER}`, "Content-Type: application/json", "Content-Length: 1.5") + "{}"]
  },
  {
    name: "HTTP/2.0 GET",
    description: "a version besides 1.0 and 1.1 that both parsers let through (llhttp takes 0.9, 1.0, 1.1 and 2.0): the status line's version and Connection, then the close",
    steps: [head("GET /health HTTP/2.0", HOST)]
  },
  {
    name: "HTTP/2.0 GET with Connection: keep-alive, twice",
    description: "HTTP/2.0 asking for keep-alive (both parsers treat a .0 minor as 1.0 does): is the connection kept, with which Connection header?",
    steps: [head("GET /health HTTP/2.0", HOST, "Connection: keep-alive"), head("GET /health HTTP/2.0", HOST, "Connection: keep-alive")]
  },
  {
    name: "HTTP/0.9 GET",
    description: "HTTP/0.9 with a full request head: the status line's version and Connection, then the close",
    steps: [head("GET /health HTTP/0.9", HOST)]
  }
]

/** How a step is waited for: live, until the server is quiet; in a replay, for what was recorded. */
export type StepWait =
  | { readonly _tag: "quiet"; readonly quietMs: number }
  | { readonly _tag: "recorded"; readonly outcome: StepOutcome; readonly graceMs: number; readonly timeoutMs: number }

interface Parsed {
  readonly answers: Array<ProbeAnswer>
  /** Bytes taken by complete answers. */
  readonly used: number
}

/** The complete answers in `raw` (a close-delimited body is complete once the connection ended). */
const parseAnswers = (raw: Buffer, method: string, ended: boolean): Parsed => {
  const answers: Array<ProbeAnswer> = []
  let at = 0
  for (;;) {
    const end = raw.indexOf("\r\n\r\n", at)
    if (end < 0) break
    const parsed = parseHead(raw.subarray(at, end))
    const framing = framingOf(parsed, method)
    const bodyStart = end + 4
    let bodyEnd: number
    if (framing === "content-length") bodyEnd = bodyStart + Number(headerValue(parsed, "content-length"))
    else if (framing === "none") bodyEnd = bodyStart
    else if (ended) bodyEnd = raw.length
    else break
    if (bodyEnd > raw.length) break
    const headers = parsed.headers.filter(([k]) => k.toLowerCase() !== "date")
    answers.push({ statusLine: parsed.statusLine, headers, framing, body: raw.subarray(bodyStart, bodyEnd).toString("latin1") })
    at = bodyEnd
  }
  return { answers, used: at }
}

const methodOf = (step: string): string => step.slice(0, step.indexOf(" "))

/** Plays a probe on a fresh connection to 127.0.0.1:port; `wait` says how each step's end is decided. */
export const playProbe = (port: number, probe: ConnectionProbe, key: string, wait: (step: number) => StepWait): Promise<ReadonlyArray<StepOutcome>> =>
  new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1")
    let received = Buffer.alloc(0)
    let used = 0
    let ended = false
    let lastDataAt = 0
    let wake: (() => void) | undefined
    const changed = () => {
      const w = wake
      wake = undefined
      w?.()
    }
    socket.on("data", (d: Buffer) => {
      received = Buffer.concat([received, d])
      lastDataAt = performance.now()
      changed()
    })
    const onEnd = () => {
      ended = true
      changed()
    }
    socket.on("end", onEnd)
    socket.on("close", onEnd)
    // a reset (the server closing on unread bytes) ends the connection as a FIN does
    socket.on("error", onEnd)
    /** Resolves at the next change or after `ms`, whichever comes first. */
    const nextChange = (ms: number) =>
      new Promise<void>((done) => {
        const t = setTimeout(() => {
          wake = undefined
          done()
        }, Math.max(0, ms))
        wake = () => {
          clearTimeout(t)
          done()
        }
      })
    // the step's method frames its answers (a HEAD's has no body); a pipelined GET's answer has a Content-Length
    let method = "GET"
    const stepAnswers = (): Array<ProbeAnswer> => parseAnswers(received.subarray(used), method, ended).answers
    const run = async () => {
      await new Promise<void>((done, fail) => {
        socket.once("connect", () => done())
        socket.once("error", fail)
      })
      const outcomes: Array<StepOutcome> = []
      for (let i = 0; i < probe.steps.length; i++) {
        const bytes = (probe.steps[i] as string).replaceAll(KEY_PLACEHOLDER, key)
        method = methodOf(bytes)
        if (!ended) socket.write(Buffer.from(bytes, "latin1"))
        const sentAt = performance.now()
        const how = wait(i)
        if (how._tag === "quiet") {
          while (!ended) {
            const quietSince = Math.max(sentAt, lastDataAt)
            const left = quietSince + how.quietMs - performance.now()
            if (left <= 0) break
            await nextChange(left)
          }
        } else {
          const deadline = sentAt + how.timeoutMs
          while (!ended && stepAnswers().length < how.outcome.answers.length && performance.now() < deadline) await nextChange(deadline - performance.now())
          if (how.outcome.ended) while (!ended && performance.now() < deadline) await nextChange(deadline - performance.now())
          else {
            const graceEnd = performance.now() + how.graceMs
            while (!ended && performance.now() < graceEnd) await nextChange(graceEnd - performance.now())
          }
        }
        const parsed = parseAnswers(received.subarray(used), method, ended)
        used += parsed.used
        outcomes.push({ answers: parsed.answers, ended })
      }
      socket.destroy()
      return outcomes
    }
    run().then(resolve, (e: unknown) => {
      socket.destroy()
      reject(e)
    })
  })

export type ProbeVerdict = "alike" | "registered" | "different"

/** What is compared of a step when a register entry explains the answers: each status code, and the end. */
const statusesAndEnd = (outcomes: ReadonlyArray<StepOutcome>) =>
  outcomes.map((o) => ({ statuses: o.answers.map((a) => a.statusLine.split(" ")[1]), ended: o.ended }))

/**
 * Same answers (status line, headers but Date, framing, body) and the same end, step by step:
 * "alike"; if not, but the probe's register entry explains it (same status codes and ends):
 * "registered".
 */
export const judgeProbe = (probe: ConnectionProbe, real: ReadonlyArray<StepOutcome>, candidate: ReadonlyArray<StepOutcome>): ProbeVerdict => {
  if (JSON.stringify(real) === JSON.stringify(candidate)) return "alike"
  if (probe.registered !== undefined && JSON.stringify(statusesAndEnd(real)) === JSON.stringify(statusesAndEnd(candidate))) return "registered"
  return "different"
}
