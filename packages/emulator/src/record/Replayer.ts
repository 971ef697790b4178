/**
 * `hermes-emulator replay DIR`: serves a recording. A request is answered with the recorded
 * exchange that has the same key (see ExchangeKey.ts); a request recorded N times gets its N
 * answers in recorded order and then the last one again (polling loops vary in length). Streams
 * are written chunk by chunk at the recorded pace (scaled by `speed`; 0 sends at once). A request
 * that was never recorded is answered 501 with a `hermetic_replay_miss` error that names it and
 * says what was recorded instead — never with a guess.
 */
import { Effect } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { refuseUnsafeStart } from "../config/StartupGuard.js"
import { makeCredentialRedactor } from "./Credentials.js"
import { exchangeKey, firstDifference, operationNamer } from "./ExchangeKey.js"
import { answerTooLarge, headerMap, keyGate, readBody, recordedRequest, TOO_LARGE } from "./RecordedTraffic.js"
import type { RecordedExchange, RecordedRequest } from "./Recording.js"
import { loadRecording, type Recording } from "./RecordingLoader.js"

export interface ReplayMiss {
  readonly method: string
  readonly path: string
  readonly operation: string | null
  readonly message: string
}

/** The answer to a request: the recorded exchange, or what is missing. */
export type ReplayAnswer = { readonly _tag: "hit"; readonly exchange: RecordedExchange } | { readonly _tag: "miss"; readonly miss: ReplayMiss }

/** The matching part of a replay, without a socket. */
export const makeReplayIndex = (recording: Recording) => {
  const operationOf = operationNamer(recording.manifest.hermesVersion)
  const byKey = new Map<string, Array<RecordedExchange>>()
  for (const e of recording.exchanges) {
    const key = exchangeKey(e.operation, e.request)
    byKey.set(key, [...(byKey.get(key) ?? []), e])
  }
  const served = new Map<string, number>()
  const describe = (r: RecordedRequest, op: string | null) => `${r.method} ${r.path}${r.query === "" ? "" : `?${r.query}`}${op === null ? "" : ` (${op})`}`
  return {
    answer: (request: RecordedRequest): ReplayAnswer => {
      const operation = operationOf(request.method, request.path)
      const key = exchangeKey(operation, request)
      const candidates = byKey.get(key)
      if (candidates !== undefined) {
        const n = served.get(key) ?? 0
        served.set(key, n + 1)
        return { _tag: "hit", exchange: candidates[Math.min(n, candidates.length - 1)] as RecordedExchange }
      }
      const same = recording.exchanges.filter((e) => e.request.method === request.method && e.request.path === request.path)
      const sameOp = operation === null ? [] : recording.exchanges.filter((e) => e.operation === operation)
      let why: string
      if (same.length > 0) {
        const nearest = same[0] as RecordedExchange
        const diffs = [
          nearest.request.query === request.query ? undefined : `query: recorded "${nearest.request.query}", got "${request.query}"`,
          exchangeKey(null, { ...nearest.request, body: null, query: "" }) === exchangeKey(null, { ...request, body: null, query: "" })
            ? undefined
            : "headers: credentials, Idempotency-Key or X-Hermes-Session-Id differ from the recording",
          firstDifference(nearest.request.body, request.body)
        ].filter((d) => d !== undefined)
        why = diffs.length > 0
          ? `${same.length} exchange(s) were recorded for ${request.method} ${request.path}, none with this request; the first differs at ${diffs.join("; ")}`
          // same method, path, query, headers and body: only the operation the route table names differs
          : `${same.length} exchange(s) were recorded for ${request.method} ${request.path} with this very request, but as operation ${
            nearest.operation ?? "(none: unknown to the recorder)"
          }, and Hermes ${recording.manifest.hermesVersion ?? "(version unknown)"} names this request ${operation ?? "no operation"}: only the operation differs (a recording edited by hand, or made by another hermetic version?)`
      } else if (sameOp.length > 0) {
        why = `the recording has ${operation} only for ${[...new Set(sameOp.map((e) => e.request.path))].slice(0, 5).join(", ")}`
      } else {
        why = `the recording has no ${operation ?? `${request.method} ${request.path}`} exchange at all (recorded: ${
          [...new Set(recording.exchanges.map((e) => e.operation ?? `${e.request.method} ${e.request.path}`))].join(", ") || "nothing"
        })`
      }
      const message = `hermetic replay: no recorded exchange for ${describe(request, operation)}: ${why}. Record it against your gateway with hermes-emulator record.`
      return { _tag: "miss", miss: { method: request.method, path: request.path, operation, message } }
    }
  }
}

export interface ReplayOptions {
  readonly dir: string
  readonly host?: string
  readonly port?: number
  /** Pace factor for recorded delays: 1 as recorded (default), 0 no waiting. */
  readonly speed?: number
  /** Required as `Authorization: Bearer KEY` on every request when set (none: a loopback host only). */
  readonly apiKey?: string
  /** Where HERMETIC_ALLOW_NO_KEY is read (config/StartupGuard.ts); none by default. */
  readonly env?: Readonly<Record<string, string | undefined>>
  readonly log?: (line: string) => void
}

export interface RunningReplayer {
  readonly url: string
  readonly port: number
  readonly recording: Recording
  /** The unrecorded requests seen so far. */
  readonly misses: () => ReadonlyArray<ReplayMiss>
  readonly close: () => Promise<void>
}

const sleep = (ms: number) => (ms <= 0 ? Promise.resolve() : new Promise((r) => setTimeout(r, ms)))

export const startReplayer = async (options: ReplayOptions): Promise<RunningReplayer> => {
  const host = options.host ?? "127.0.0.1"
  const apiKey = options.apiKey ?? ""
  refuseUnsafeStart({ host, apiKey, adminKey: undefined }, options.env ?? {})
  const recording = loadRecording(options.dir)
  const allowed = keyGate(apiKey, recording.manifest.hermesVersion)
  const index = makeReplayIndex(recording)
  const speed = options.speed ?? 1
  const log = options.log ?? (() => {})
  const credentials = makeCredentialRedactor()
  const misses: Array<ReplayMiss> = []

  const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!allowed(req, res)) return
    const headers = headerMap(req)
    const body = await readBody(req)
    if (body === TOO_LARGE) return answerTooLarge(res)
    const request = recordedRequest(req.method ?? "GET", req.url ?? "/", headers, body, credentials.observe(headers))
    const answer = index.answer(request)
    if (answer._tag === "miss") {
      misses.push(answer.miss)
      log(answer.miss.message)
      res.writeHead(501, { "content-type": "application/json; charset=utf-8", "x-hermetic-replay": "miss" })
      res.end(JSON.stringify({ error: { message: answer.miss.message, type: "hermetic_replay_miss", code: "unrecorded_request", request: { method: request.method, path: request.path, operation: answer.miss.operation, body: request.body } } }))
      return
    }
    const { response } = answer.exchange
    await sleep(response.headersAtMs * speed)
    if (response.stream !== undefined) {
      res.writeHead(response.status, response.headers.flat())
      res.flushHeaders()
      const t0 = performance.now()
      for (const chunk of response.stream) {
        await sleep(chunk.atMs * speed - (performance.now() - t0))
        if (res.destroyed) return
        res.write(chunk.text)
      }
    } else {
      const body = Buffer.from(response.body ?? "", "utf8")
      res.writeHead(response.status, [...response.headers.flat(), "Content-Length", String(body.byteLength)])
      res.write(body)
    }
    if (response.incomplete === true) res.destroy()
    else res.end()
  }

  const server = http.createServer((req, res) => {
    serve(req, res).catch((e: unknown) => {
      log(`[replay] error: ${String(e)}`)
      if (!res.headersSent) res.writeHead(500)
      res.end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://${host}:${port}`,
    port,
    recording,
    misses: () => [...misses],
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

/** The replayer as a scoped resource. */
export const replayerResource = (options: ReplayOptions) =>
  Effect.acquireRelease(Effect.promise(() => startReplayer(options)), (r) => Effect.promise(() => r.close()))
