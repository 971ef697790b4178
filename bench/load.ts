/** Loopback load with autocannon, bounded in time; the server's CPU is read around the run. */
import autocannon from "autocannon"
import { randomBytes } from "node:crypto"
import { readFile } from "node:fs/promises"
import { percentile } from "./stats.js"

export interface LoadSpec {
  readonly name: string
  readonly method: "GET" | "POST"
  readonly path: (runId: string) => string
  readonly body?: string
  /** A fresh Idempotency-Key per request. */
  readonly uniqueKey?: boolean
  /** A path per request (e.g. a random run among many), instead of `path`. */
  readonly pickPath?: () => string
}

export interface LoadResult {
  /** All answers per second (2xx or not). */
  readonly requestsPerSecond: number
  /** 2xx answers per second: what a rejected request (429) does not count for. */
  readonly acceptedPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly cpuMicrosPerRequest: number
  readonly requests: number
  readonly errors: number
}

export interface LoadTarget {
  readonly baseUrl: string
  readonly apiKey: string
  readonly runId: string
  /** The server process's CPU time so far, in µs. */
  readonly cpuMicros: () => Promise<number>
}

/** CPU of a bench child that reports its own process.cpuUsage() on a side port (servers/control.ts). */
export const controlCpu = (controlPort: number) => async (): Promise<number> =>
  ((await (await fetch(`http://127.0.0.1:${controlPort}/`)).json()) as { cpuMicros: number }).cpuMicros

/** CPU and memory of a bench child; `gc` collects garbage first (child started with --expose-gc). */
/** `heapUsed` is absent where the measured process is not the one answering (the scaled emulator reads the CLI's /proc). */
export const readControl = async (controlPort: number, gc = false): Promise<{ cpuMicros: number; rss: number; heapUsed?: number }> =>
  (await (await fetch(`http://127.0.0.1:${controlPort}/${gc ? "?gc=1" : ""}`)).json()) as { cpuMicros: number; rss: number; heapUsed?: number }

/** CPU of any local process from /proc (utime + stime, in clock ticks of 10 ms). */
export const procCpu = (pid: () => number | null) => async (): Promise<number> => {
  const p = pid()
  if (p === null) return 0
  const stat = await readFile(`/proc/${p}/stat`, "utf8")
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  // fields[11], fields[12]: utime, stime (stat fields 14 and 15)
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}

export const runLoad = async (spec: LoadSpec, target: LoadTarget, seconds: number, connections = 10): Promise<LoadResult> => {
  const options = {
    url: target.baseUrl,
    connections,
    duration: seconds,
    requests: [
      {
        method: spec.method,
        path: spec.path(target.runId),
        headers: { authorization: `Bearer ${target.apiKey}`, "content-type": "application/json" },
        ...(spec.body === undefined ? {} : { body: spec.body }),
        ...(spec.uniqueKey === true || spec.pickPath !== undefined
          ? {
              setupRequest: (req: Record<string, unknown>) => ({
                ...req,
                ...(spec.pickPath === undefined ? {} : { path: spec.pickPath() }),
                headers: {
                  ...(req["headers"] as Record<string, string>),
                  ...(spec.uniqueKey === true ? { "idempotency-key": randomBytes(12).toString("hex") } : {})
                }
              })
            }
          : {})
      }
    ]
  }
  const before = await target.cpuMicros()
  const t0 = performance.now()
  // autocannon's own histogram keeps whole milliseconds; the raw 2xx durations keep fractions
  const latencies: Array<number> = []
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const tracker = autocannon(options as unknown as autocannon.Options, (err, res) => (err ? reject(err as Error) : resolve(res)))
    tracker.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (status >= 200 && status < 300) latencies.push(ms)
    })
  })
  const elapsed = (performance.now() - t0) / 1000
  const after = await target.cpuMicros()
  const requests = result.requests.total
  const rejected = result.non2xx + result.errors
  return {
    requestsPerSecond: requests / elapsed,
    acceptedPerSecond: Math.max(0, requests - result.non2xx) / elapsed,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    cpuMicrosPerRequest: requests === 0 ? 0 : (after - before) / requests,
    requests,
    errors: rejected
  }
}
