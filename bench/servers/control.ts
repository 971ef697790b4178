/**
 * A side port on each bench server that reports the process's own CPU time and memory, and (for
 * bench/profile.ts) profiles a window: `/profile/start` starts V8's CPU profiler and counts garbage
 * collections from then on, `/profile/stop` answers the profile and the collections.
 */
import * as http from "node:http"
import { Session } from "node:inspector/promises"
import type { AddressInfo } from "node:net"
import { PerformanceObserver } from "node:perf_hooks"

/** Garbage collections in the profiled window, by kind (V8's minor = scavenge, major = mark-compact). */
interface GcTally {
  minor: { count: number; ms: number }
  major: { count: number; ms: number }
}

let session: Session | undefined
let tally: GcTally | undefined
const observer = new PerformanceObserver((list) => {
  if (tally === undefined) return
  for (const entry of list.getEntries()) {
    // NODE_PERFORMANCE_GC_MINOR = 1 (scavenge); every other kind is counted as major
    const kind = (entry as unknown as { readonly detail?: { readonly kind?: number } }).detail?.kind === 1 ? tally.minor : tally.major
    kind.count++
    kind.ms += entry.duration
  }
})

const profileStart = async () => {
  session ??= new Session()
  session.connect()
  await session.post("Profiler.enable")
  await session.post("Profiler.setSamplingInterval", { interval: 250 })
  await session.post("Profiler.start")
  tally = { minor: { count: 0, ms: 0 }, major: { count: 0, ms: 0 } }
  observer.observe({ entryTypes: ["gc"] })
  return {}
}

const profileStop = async () => {
  if (session === undefined) return { error: "no profile started" }
  const { profile } = await session.post("Profiler.stop")
  session.disconnect()
  session = undefined
  observer.disconnect()
  const gc = tally
  tally = undefined
  return { profile, gc }
}

export const startControl = (): Promise<number> =>
  new Promise((resolve) => {
    const server = http.createServer((req, res) => {
      if (req.url === "/profile/start" || req.url === "/profile/stop") {
        void (req.url === "/profile/start" ? profileStart() : profileStop()).then((body) => res.end(JSON.stringify(body)))
        return
      }
      // `?gc=1` collects garbage first (when node runs with --expose-gc), so RSS shows what is held
      const gc = (globalThis as { gc?: () => void }).gc
      if (req.url?.includes("gc=1") === true && gc !== undefined) {
        gc()
        gc()
      }
      const cpu = process.cpuUsage()
      const mem = process.memoryUsage()
      res.end(JSON.stringify({ cpuMicros: cpu.user + cpu.system, rss: mem.rss, heapUsed: mem.heapUsed, external: mem.external }))
    })
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port))
  })
