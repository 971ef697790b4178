/**
 * Closed-loop load for what autocannon cannot time: a streamed answer (time to the first content
 * chunk, then to the end) and a whole run (POST, then GET until it settles). A few workers each
 * repeat one flow over keep-alive loopback connections until the time or the count is spent.
 */
import * as http from "node:http"
import { percentile } from "./stats.js"

export interface Exchange {
  readonly status: number
  readonly body: string
  /** ms from sending to the first body byte, and to the first chunk whose text matches `firstMatch`. */
  readonly firstByteMs: number
  readonly firstMatchMs: number | undefined
  readonly totalMs: number
}

export interface HttpTarget {
  readonly baseUrl: string
  readonly apiKey: string
}

/** One request on a keep-alive agent; the body is read whole, the first matching chunk is timed. */
export const request = (
  agent: http.Agent,
  target: HttpTarget,
  method: "GET" | "POST",
  path: string,
  body?: string,
  firstMatch?: string
): Promise<Exchange> =>
  new Promise((resolve, reject) => {
    const url = new URL(path, target.baseUrl)
    const t0 = performance.now()
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers: {
          authorization: `Bearer ${target.apiKey}`,
          ...(body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
        }
      },
      (res) => {
        let firstByteMs: number | undefined
        let firstMatchMs: number | undefined
        const chunks: Array<Buffer> = []
        res.on("data", (c: Buffer) => {
          const t = performance.now() - t0
          firstByteMs ??= t
          if (firstMatch !== undefined && firstMatchMs === undefined && c.toString("utf8").includes(firstMatch)) firstMatchMs = t
          chunks.push(c)
        })
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            firstByteMs: firstByteMs ?? performance.now() - t0,
            firstMatchMs,
            totalMs: performance.now() - t0
          })
        )
        res.on("error", reject)
      }
    )
    req.on("error", reject)
    req.setTimeout(120_000, () => req.destroy(new Error(`${method} ${path}: no answer within 120 s`)))
    req.end(body)
  })

export interface FlowSample {
  readonly ok: boolean
  readonly totalMs: number
  readonly firstMs?: number
  /** Requests the flow sent (a run's POST plus its polls). */
  readonly requests: number
}

export interface FlowResult {
  readonly flowsPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly firstP50Ms: number | undefined
  readonly firstP99Ms: number | undefined
  readonly flows: number
  readonly failures: number
  readonly requestsPerFlow: number
}

/** Runs `flow` on `workers` loops for `seconds` (and at most `maxFlows` in all). */
export const runFlows = async (
  flow: (agent: http.Agent) => Promise<FlowSample>,
  opts: { readonly workers: number; readonly seconds: number; readonly maxFlows?: number }
): Promise<FlowResult> => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.workers })
  const samples: Array<FlowSample> = []
  const t0 = performance.now()
  const deadline = t0 + opts.seconds * 1000
  let started = 0
  const worker = async () => {
    while (performance.now() < deadline && started < (opts.maxFlows ?? Number.POSITIVE_INFINITY)) {
      started++
      samples.push(await flow(agent))
    }
  }
  try {
    await Promise.all(Array.from({ length: opts.workers }, worker))
  } finally {
    agent.destroy()
  }
  const elapsed = (performance.now() - t0) / 1000
  const ok = samples.filter((s) => s.ok)
  const totals = ok.map((s) => s.totalMs)
  const firsts = ok.flatMap((s) => (s.firstMs === undefined ? [] : [s.firstMs]))
  return {
    flowsPerSecond: ok.length / elapsed,
    p50Ms: percentile(totals, 50),
    p99Ms: percentile(totals, 99),
    firstP50Ms: firsts.length === 0 ? undefined : percentile(firsts, 50),
    firstP99Ms: firsts.length === 0 ? undefined : percentile(firsts, 99),
    flows: ok.length,
    failures: samples.length - ok.length,
    requestsPerFlow: ok.length === 0 ? 0 : ok.reduce((n, s) => n + s.requests, 0) / ok.length
  }
}

/** A streamed chat completion: first content delta, then [DONE]. */
export const streamedChatFlow = (target: HttpTarget, body: string) => async (agent: http.Agent): Promise<FlowSample> => {
  const x = await request(agent, target, "POST", "/v1/chat/completions", body, '"content"')
  const ok = x.status === 200 && x.body.includes("data: [DONE]")
  return { ok, totalMs: x.totalMs, ...(x.firstMatchMs === undefined ? {} : { firstMs: x.firstMatchMs }), requests: 1 }
}

/** A whole run: POST /v1/runs, then GET /v1/runs/{id} back to back until it settles (bounded). */
export const fullRunFlow = (target: HttpTarget, body: string, maxPolls = 5000) => async (agent: http.Agent): Promise<FlowSample> => {
  const t0 = performance.now()
  const post = await request(agent, target, "POST", "/v1/runs", body)
  if (post.status !== 202) return { ok: false, totalMs: performance.now() - t0, requests: 1 }
  const runId = String((JSON.parse(post.body) as { run_id?: unknown }).run_id)
  for (let polls = 1; polls <= maxPolls; polls++) {
    const get = await request(agent, target, "GET", `/v1/runs/${runId}`)
    const status = get.status === 200 ? String((JSON.parse(get.body) as { status?: unknown }).status) : "?"
    if (status === "completed") return { ok: true, totalMs: performance.now() - t0, requests: 1 + polls }
    if (status === "failed" || status === "cancelled" || get.status !== 200) return { ok: false, totalMs: performance.now() - t0, requests: 1 + polls }
  }
  return { ok: false, totalMs: performance.now() - t0, requests: 1 + maxPolls }
}
