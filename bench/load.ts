/** Loopback load with autocannon, bounded in time; the server's CPU is read around the run. */
import autocannon from "autocannon"
import { randomBytes } from "node:crypto"

export interface LoadSpec {
  readonly name: string
  readonly method: "GET" | "POST"
  readonly path: (runId: string) => string
  readonly body?: string
  /** A fresh Idempotency-Key per request. */
  readonly uniqueKey?: boolean
}

export interface LoadResult {
  readonly requestsPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly cpuMicrosPerRequest: number
  readonly requests: number
  readonly errors: number
}

export const readCpu = async (controlPort: number): Promise<{ cpuMicros: number; rss: number }> =>
  (await (await fetch(`http://127.0.0.1:${controlPort}/`)).json()) as { cpuMicros: number; rss: number }

export const runLoad = async (
  spec: LoadSpec,
  target: { port: number; controlPort: number; runId: string; apiKey: string },
  seconds: number,
  connections = 10
): Promise<LoadResult> => {
  const options = {
    url: `http://127.0.0.1:${target.port}`,
    connections,
    duration: seconds,
    requests: [
      {
        method: spec.method,
        path: spec.path(target.runId),
        headers: { authorization: `Bearer ${target.apiKey}`, "content-type": "application/json" },
        ...(spec.body === undefined ? {} : { body: spec.body }),
        ...(spec.uniqueKey === true
          ? {
              setupRequest: (req: Record<string, unknown>) => ({
                ...req,
                headers: { ...(req["headers"] as Record<string, string>), "idempotency-key": randomBytes(12).toString("hex") }
              })
            }
          : {})
      }
    ]
  }
  const before = await readCpu(target.controlPort)
  const result = await autocannon(options as unknown as autocannon.Options)
  const after = await readCpu(target.controlPort)
  const requests = result.requests.total
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuMicrosPerRequest: requests === 0 ? 0 : (after.cpuMicros - before.cpuMicros) / requests,
    requests,
    errors: result.errors + result.non2xx
  }
}
