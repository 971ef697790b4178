/**
 * `hermes-emulator record --upstream URL --out DIR`: a loopback proxy in front of the user's own
 * Hermes gateway (whatever model it runs). Every exchange passes through unchanged and is written
 * to DIR as it completes — event streams chunk by chunk with their timing — with credentials
 * redacted. The application under test points its base URL at the proxy instead of the gateway.
 */
import { Effect } from "effect"
import { mkdirSync, writeFileSync } from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { StringDecoder } from "node:string_decoder"
import type { Redactor } from "../journal/Redaction.js"
import { makeCredentialRedactor } from "./Credentials.js"
import { operationNamer } from "./ExchangeKey.js"
import { answerTooLarge, HOP_BY_HOP, headerMap, isEventStream, readBody, recordedRequest, TOO_LARGE } from "./RecordedTraffic.js"
import { exchangeFileName, RECORDING_FORMAT, type RecordedExchange, type RecordedRequest, type RecordingManifest } from "./Recording.js"

export interface RecorderOptions {
  /** The gateway's base URL, e.g. http://127.0.0.1:8642 */
  readonly upstream: string
  /** The recording directory (created; exchanges are added to it). */
  readonly out: string
  readonly host?: string
  /** 0 (default) for any free port. */
  readonly port?: number
  readonly log?: (line: string) => void
}

export interface RunningRecorder {
  readonly url: string
  readonly port: number
  readonly manifest: RecordingManifest
  /** How many exchanges were written so far. */
  readonly recorded: () => number
  /** Resolves when every exchange in flight has been written. */
  readonly settled: () => Promise<void>
  readonly close: () => Promise<void>
}

/** What the upstream says it is: /health's `version`, when it answers. */
const probeVersion = async (upstream: URL): Promise<string | null> => {
  try {
    const res = await fetch(new URL("/health", upstream), { signal: AbortSignal.timeout(3000) })
    const body = (await res.json()) as Record<string, unknown>
    return typeof body["version"] === "string" ? body["version"] : null
  } catch {
    return null
  }
}

/**
 * A stream's chunks, redacted. Chunk by chunk keeps the timing; a secret split across two chunks
 * would survive that, so when redacting the whole text finds more, the stream is kept as one
 * redacted chunk (timing lost, secret gone).
 */
export const redactedStream = (
  chunks: ReadonlyArray<{ readonly atMs: number; readonly text: string }>,
  redact: (text: string) => string
): Array<{ atMs: number; text: string }> => {
  const each = chunks.map((c) => ({ atMs: c.atMs, text: redact(c.text) }))
  const whole = redact(chunks.map((c) => c.text).join(""))
  return whole === each.map((c) => c.text).join("") ? each : [{ atMs: chunks[0]?.atMs ?? 0, text: whole }]
}

/** What every exchange of one recording shares: where it goes, how it is named and redacted. */
interface Recording {
  readonly manifest: RecordingManifest
  readonly upstream: URL
  /** The upstream's path prefix, without its trailing slash. */
  readonly base: string
  readonly client: Pick<typeof http, "request">
  readonly exchangesDir: string
  readonly operationOf: (method: string, path: string) => string | null
  readonly credentials: ReturnType<typeof makeCredentialRedactor>
  readonly log: (line: string) => void
  /** performance.now() when the recording started: exchanges are timed from it. */
  readonly started: number
  seq: number
  written: number
}

/** The recording directory made, its manifest written (naming the upstream's version when /health says it). */
const openRecording = async (options: RecorderOptions): Promise<Recording> => {
  const upstream = new URL(options.upstream)
  const exchangesDir = join(options.out, "exchanges")
  mkdirSync(exchangesDir, { recursive: true })
  const manifest: RecordingManifest = {
    format: RECORDING_FORMAT,
    version: 1,
    upstream: upstream.origin,
    hermesVersion: await probeVersion(upstream),
    recordedAt: new Date().toISOString()
  }
  writeFileSync(join(options.out, "recording.json"), `${JSON.stringify(manifest, null, 2)}\n`)
  return {
    manifest,
    upstream,
    base: upstream.pathname.replace(/\/$/, ""),
    // node:https (and TLS) required only for an https upstream: loading it cost every CLI start ~0.6 ms
    client: upstream.protocol === "https:" ? process.getBuiltinModule("node:https") : http,
    exchangesDir,
    operationOf: operationNamer(manifest.hermesVersion),
    credentials: makeCredentialRedactor(),
    log: options.log ?? (() => {}),
    started: performance.now(),
    seq: 0,
    written: 0
  }
}

/** One exchange as the proxy saw its request. */
interface PendingExchange {
  readonly seq: number
  /** performance.now() when the request arrived. */
  readonly t0: number
  readonly url: string
  readonly request: RecordedRequest
  readonly redact: Redactor
}

/** The request's headers as sent upstream: hop-by-hop ones dropped, the length the body has. */
const forwardedHeaders = (headers: Readonly<Record<string, string>>, body: Buffer): Record<string, string> => {
  const forwarded: Record<string, string> = {}
  // accept-encoding stays out: the recording keeps bodies as text, so the upstream must not compress them
  for (const [k, v] of Object.entries(headers)) if (!HOP_BY_HOP.has(k) && k !== "accept-encoding") forwarded[k] = v
  if (body.byteLength > 0 || headers["content-length"] !== undefined) forwarded["content-length"] = String(body.byteLength)
  return forwarded
}

/** The upstream answer's headers, in order and as spelled, hop-by-hop ones dropped. */
const answerHeaders = (upRes: http.IncomingMessage): Array<[string, string]> => {
  const pairs: Array<[string, string]> = []
  for (let i = 0; i + 1 < upRes.rawHeaders.length; i += 2) {
    const name = upRes.rawHeaders[i] as string
    if (!HOP_BY_HOP.has(name.toLowerCase())) pairs.push([name, upRes.rawHeaders[i + 1] as string])
  }
  return pairs
}

/** What came back for one exchange, as it arrived. */
interface CapturedAnswer {
  readonly status: number
  readonly pairs: ReadonlyArray<[string, string]>
  readonly headersAtMs: number
  readonly streaming: boolean
  /** A stream's chunks with their arrival time, added as they come; empty for a plain body. */
  readonly chunks: Array<{ atMs: number; text: string }>
  /** A plain body's bytes, added as they come; empty for a stream. */
  readonly whole: Array<Buffer>
}

/** The exchange as written: credentials redacted in headers and body, a stream kept chunk by chunk. */
const recordedExchange = (recording: Recording, pending: PendingExchange, answer: CapturedAnswer, incomplete: boolean): RecordedExchange => ({
  seq: pending.seq,
  startedAtMs: Math.round(pending.t0 - recording.started),
  operation: recording.operationOf(pending.request.method, pending.request.path),
  request: pending.request,
  response: {
    status: answer.status,
    headers: answer.pairs.map(([k, v]) => [k, pending.redact.headers({ [k.toLowerCase()]: v })[k.toLowerCase()] ?? v] as const),
    headersAtMs: Math.round(answer.headersAtMs),
    ...(answer.streaming
      ? { stream: redactedStream(answer.chunks.filter((c) => c.text !== ""), pending.redact.text) }
      : { body: pending.redact.text(Buffer.concat(answer.whole).toString("utf8")) }),
    ...(incomplete ? { incomplete: true } : {})
  }
})

const writeExchange = (recording: Recording, pending: PendingExchange, answer: CapturedAnswer, incomplete: boolean): void => {
  const exchange = recordedExchange(recording, pending, answer, incomplete)
  writeFileSync(join(recording.exchangesDir, exchangeFileName(exchange)), `${JSON.stringify(exchange, null, 2)}\n`)
  recording.written++
  const shape = answer.streaming ? ` (stream, ${answer.chunks.length} chunks)` : ""
  recording.log(`[record] #${pending.seq} ${pending.request.method} ${pending.url} → ${answer.status}${shape}`)
}

/**
 * The upstream's answer passed to the application as it comes, and written once it ends, fails,
 * or the application hangs up (then the upstream is stopped too and what came is kept).
 */
const relayAnswer = (
  recording: Recording,
  pending: PendingExchange,
  up: http.ClientRequest,
  upRes: http.IncomingMessage,
  res: http.ServerResponse,
  done: () => void
): void => {
  const headersAtMs = performance.now() - pending.t0
  const pairs = answerHeaders(upRes)
  const status = upRes.statusCode ?? 502
  res.writeHead(status, pairs.flat())
  const streaming = isEventStream(pairs)
  if (streaming) res.flushHeaders()
  const decoder = new StringDecoder("utf8")
  const answer: CapturedAnswer = { status, pairs, headersAtMs, streaming, chunks: [], whole: [] }
  const t1 = performance.now()
  upRes.on("data", (chunk: Buffer) => {
    res.write(chunk)
    if (streaming) answer.chunks.push({ atMs: Math.round(performance.now() - t1), text: decoder.write(chunk) })
    else answer.whole.push(chunk)
  })
  let finished = false
  const finish = (incomplete: boolean) => {
    if (finished) return
    finished = true
    writeExchange(recording, pending, answer, incomplete)
    done()
  }
  upRes.on("end", () => {
    res.end()
    finish(false)
  })
  upRes.on("error", () => {
    res.destroy()
    finish(true)
  })
  res.on("close", () => {
    if (!upRes.complete) {
      up.destroy()
      finish(true)
    }
  })
}

/** No answer from the upstream: the application gets a 502 naming it, nothing is recorded. */
const answerUnreachable = (recording: Recording, pending: PendingExchange, res: http.ServerResponse, e: Error): void => {
  recording.log(`[record] #${pending.seq} ${pending.request.method} ${pending.url}: upstream unreachable (${e.message}), not recorded`)
  res.writeHead(502, { "content-type": "application/json" })
  res.end(JSON.stringify({ error: { message: `hermetic record: upstream ${recording.upstream.origin} unreachable: ${e.message}`, type: "hermetic_record_error" } }))
}

/** One exchange: the request read and redacted, forwarded, its answer relayed and written. */
const proxyExchange = async (recording: Recording, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
  const t0 = performance.now()
  const seq = ++recording.seq
  const headers = headerMap(req)
  const body = await readBody(req)
  if (body === TOO_LARGE) return answerTooLarge(res)
  const redact = recording.credentials.observe(headers)
  const url = req.url ?? "/"
  const pending: PendingExchange = { seq, t0, url, request: recordedRequest(req.method ?? "GET", url, headers, body, redact), redact }
  const { upstream } = recording
  await new Promise<void>((done) => {
    const up = recording.client.request(
      { protocol: upstream.protocol, hostname: upstream.hostname, port: upstream.port, method: req.method, path: `${recording.base}${url}`, headers: forwardedHeaders(headers, body) },
      (upRes) => relayAnswer(recording, pending, up, upRes, res, done)
    )
    up.on("error", (e) => {
      if (!res.headersSent) answerUnreachable(recording, pending, res, e)
      done()
    })
    up.end(body)
  })
}

/** The proxy's server: each exchange tracked until written, a proxy error a bare 500. */
const listenProxy = async (recording: Recording, options: RecorderOptions) => {
  const inFlight = new Set<Promise<void>>()
  const server = http.createServer((req, res) => {
    const p = proxyExchange(recording, req, res).catch((e: unknown) => {
      recording.log(`[record] proxy error: ${String(e)}`)
      if (!res.headersSent) res.writeHead(500)
      res.end()
    })
    inFlight.add(p)
    void p.finally(() => inFlight.delete(p))
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve())
  })
  const settled = async () => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight])
  }
  return { server, settled }
}

export const startRecorder = async (options: RecorderOptions): Promise<RunningRecorder> => {
  const recording = await openRecording(options)
  const { server, settled } = await listenProxy(recording, options)
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}`,
    port,
    manifest: recording.manifest,
    recorded: () => recording.written,
    settled,
    close: async () => {
      // let exchanges in flight end by themselves for a moment, then cut (and record) the rest
      await Promise.race([settled(), new Promise((r) => setTimeout(r, 2000))])
      server.closeAllConnections()
      await settled()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

/** The recorder as a scoped resource: closed (pending exchanges written) when the scope ends. */
export const recorderResource = (options: RecorderOptions) =>
  Effect.acquireRelease(Effect.promise(() => startRecorder(options)), (r) => Effect.promise(() => r.close()))
