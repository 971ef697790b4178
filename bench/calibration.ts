/**
 * How fast this machine ran a fixed piece of work as a section began and ended, so a reader can
 * tell a slower machine from a slower product: the same code measured ~40 % slower from one
 * session to the next on this shared 2-core machine (docs/performance.md, "Reading the figures
 * across runs"). The work is a pure JavaScript loop (no allocation, no syscall) timed as CPU of this
 * thread, the fastest of five tries: what a core gives one thread at that moment.
 */
import { cpuUsage } from "node:process"

const ITERATIONS = 20_000_000

const spin = (seed: number): number => {
  let x = seed | 1
  for (let i = 0; i < ITERATIONS; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
  }
  return x
}

let sink = 0

/** CPU ms of the fixed loop, the fastest of five. */
export const calibrationMs = (): number => {
  let best = Number.POSITIVE_INFINITY
  for (let i = 0; i < 5; i++) {
    const before = cpuUsage()
    sink ^= spin(i + sink)
    const used = cpuUsage(before)
    best = Math.min(best, (used.user + used.system) / 1000)
  }
  return Math.round(best * 100) / 100
}
