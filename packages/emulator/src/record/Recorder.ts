/**
 * `hermes-emulator record --upstream URL --out DIR`: a proxy (on loopback unless given a key) in
 * front of the user's own Hermes gateway (whatever model it runs). Every exchange passes through unchanged and is written
 * to DIR as it completes — event streams chunk by chunk with their timing — with credentials
 * redacted. The application under test points its base URL at the proxy instead of the gateway.
 */
import { Effect } from "effect"
import { mkdirSync, writeFileSync } from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { StringDecoder } from "node:string_decoder"
import { makeCredentialRedactor } from "./Credentials.js"
import { operationNamer } from "./ExchangeKey.js"
import { refuseUnsafeStart } from "../config/StartupGuard.js"
import { answerTooLarge, HOP_BY_HOP, headerMap, isEventStream, keyGate, readBody, recordedRequest, TOO_LARGE } from "./RecordedTraffic.js"
import { exchangeFileName, RECORDING_FORMAT, type RecordedExchange, type RecordingManifest } from "./Recording.js"

export interface RecorderOptions {
  /** The gateway's base URL, e.g. http://127.0.0.1:8642 */
  readonly upstream: string
  /** The recording directory (created; exchanges are added to it). */
  readonly out: string
  readonly host?: string
  /** 0 (default) for any free port. */
  readonly port?: number
  /** Required as `Authorization: Bearer KEY` on every request when set (none: a loopback host only). */
  readonly apiKey?: string
  /** Where HERMETIC_ALLOW_NO_KEY is read (config/StartupGuard.ts); none by default. */
  readonly env?: Readonly<Record<string, string | undefined>>
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

export const startRecorder = async (options: RecorderOptions): Promise<RunningRecorder> => {
  const host = options.host ?? "127.0.0.1"
  const apiKey = options.apiKey ?? ""
  refuseUnsafeStart({ host, apiKey, adminKey: undefined }, options.env ?? {})
  const upstream = new URL(options.upstream)
  const log = options.log ?? (() => {})
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
  const operationOf = operationNamer(manifest.hermesVersion)
  const credentials = makeCredentialRedactor()
  const allowed = keyGate(apiKey, manifest.hermesVersion)
  // node:https (and TLS) required only for an https upstream: loading it cost every CLI start ~0.6 ms
  const client = upstream.protocol === "https:" ? process.getBuiltinModule("node:https") : http
  const base = upstream.pathname.replace(/\/$/, "")
  const started = performance.now()
  let seq = 0
  let written = 0
  const inFlight = new Set<Promise<void>>()

  const proxy = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    if (!allowed(req, res)) return
    const t0 = performance.now()
    const mySeq = ++seq
    const headers = headerMap(req)
    const body = await readBody(req)
    if (body === TOO_LARGE) return answerTooLarge(res)
    const redact = credentials.observe(headers)
    const request = recordedRequest(req.method ?? "GET", req.url ?? "/", headers, body, redact)
    const forwarded: Record<string, string> = {}
    // accept-encoding stays out: the recording keeps bodies as text, so the upstream must not compress them
    for (const [k, v] of Object.entries(headers)) if (!HOP_BY_HOP.has(k) && k !== "accept-encoding") forwarded[k] = v
    if (body.byteLength > 0 || headers["content-length"] !== undefined) forwarded["content-length"] = String(body.byteLength)
    await new Promise<void>((done) => {
      const up = client.request(
        { protocol: upstream.protocol, hostname: upstream.hostname, port: upstream.port, method: req.method, path: `${base}${req.url ?? "/"}`, headers: forwarded },
        (upRes) => {
          const headersAtMs = performance.now() - t0
          const pairs: Array<[string, string]> = []
          for (let i = 0; i + 1 < upRes.rawHeaders.length; i += 2) {
            const name = upRes.rawHeaders[i] as string
            if (!HOP_BY_HOP.has(name.toLowerCase())) pairs.push([name, upRes.rawHeaders[i + 1] as string])
          }
          const status = upRes.statusCode ?? 502
          res.writeHead(status, pairs.flat())
          if (isEventStream(pairs)) res.flushHeaders()
          const streaming = isEventStream(pairs)
          const decoder = new StringDecoder("utf8")
          const chunks: Array<{ atMs: number; text: string }> = []
          const whole: Array<Buffer> = []
          const t1 = performance.now()
          upRes.on("data", (chunk: Buffer) => {
            res.write(chunk)
            if (streaming) chunks.push({ atMs: Math.round(performance.now() - t1), text: decoder.write(chunk) })
            else whole.push(chunk)
          })
          let finished = false
          const finish = (incomplete: boolean) => {
            if (finished) return
            finished = true
            const redactBody = redact.text
            const exchange: RecordedExchange = {
              seq: mySeq,
              startedAtMs: Math.round(t0 - started),
              operation: operationOf(request.method, request.path),
              request,
              response: {
                status,
                headers: pairs.map(([k, v]) => [k, redact.headers({ [k.toLowerCase()]: v })[k.toLowerCase()] ?? v] as const),
                headersAtMs: Math.round(headersAtMs),
                ...(streaming
                  ? { stream: redactedStream(chunks.filter((c) => c.text !== ""), redactBody) }
                  : { body: redactBody(Buffer.concat(whole).toString("utf8")) }),
                ...(incomplete ? { incomplete: true } : {})
              }
            }
            writeFileSync(join(exchangesDir, exchangeFileName(exchange)), `${JSON.stringify(exchange, null, 2)}\n`)
            written++
            log(`[record] #${mySeq} ${request.method} ${req.url ?? "/"} → ${status}${streaming ? ` (stream, ${chunks.length} chunks)` : ""}`)
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
          // the application hung up before the end: stop the upstream too, keep what came
          res.on("close", () => {
            if (!upRes.complete) {
              up.destroy()
              finish(true)
            }
          })
        }
      )
      up.on("error", (e) => {
        if (res.headersSent) return done()
        log(`[record] #${mySeq} ${request.method} ${req.url ?? "/"}: upstream unreachable (${e.message}), not recorded`)
        res.writeHead(502, { "content-type": "application/json" })
        res.end(JSON.stringify({ error: { message: `hermetic record: upstream ${upstream.origin} unreachable: ${e.message}`, type: "hermetic_record_error" } }))
        done()
      })
      up.end(body)
    })
  }

  const server = http.createServer((req, res) => {
    const p = proxy(req, res).catch((e: unknown) => {
      log(`[record] proxy error: ${String(e)}`)
      if (!res.headersSent) res.writeHead(500)
      res.end()
    })
    inFlight.add(p)
    void p.finally(() => inFlight.delete(p))
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const settled = async () => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight])
  }
  return {
    url: `http://${host}:${port}`,
    port,
    manifest,
    recorded: () => written,
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
