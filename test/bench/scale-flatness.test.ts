import { describe, expect, it } from "vitest"
import { latencyFlatness, type ScalePoint } from "../../bench/scale.js"
import type { Spread } from "../../bench/stats.js"

const s = (median: number): Spread => ({ median, min: median, max: median })
const load = (p50: number, cpu: number) => ({ rps: s(1), p50Ms: s(p50), p99Ms: s(p50), cpuMicrosPerRequest: s(cpu) })
const point = (runs: number, p50: number, toSmallest?: { seq: number; sat: number; cpu: number }): ScalePoint => ({
  runs,
  seedSeconds: 0,
  rssMiB: 0,
 
  rssEmptyMiB: 0,
  getInMemory: load(p50, 30),
  getSequential: load(p50, 30),
  ...(toSmallest === undefined
    ? {}
    : { toSmallest: { sequentialP50: s(toSmallest.seq), saturatedP50: s(toSmallest.sat), cpuMicrosPerRequest: s(toSmallest.cpu) } }),
  sweepingGetMs: 0,
  rssAfterSweepMiB: 0,
  getFromLedger: load(p50, 30),
  keyedPost: { rps: 1, p50Ms: 1, p99Ms: 1, cpuMicrosPerRequest: 1 }
})

describe("scale bench: the flatness verdict", () => {
  it("judges the side-by-side ratios of one-at-a-time GETs, and reports the saturating load and CPU beside", () => {
    const flat = latencyFlatness([point(1_000, 0.1), point(100_000, 0.3, { seq: 1.05, sat: 1.3, cpu: 1.4 }), point(1_000_000, 0.3, { seq: 1.12, sat: 1.25, cpu: 1.45 })])
    expect(flat.p50GrowthPercent).toBeCloseTo(12, 5)
    expect(flat.withinTarget).toBe(true)
    expect(flat.saturatedP50GrowthPercent).toBeCloseTo(30, 5)
    expect(flat.saturatedWithinTarget).toBe(false)
    expect(flat.cpuGrowthPercent).toBeCloseTo(45, 5)
  })

  it("fails when one larger store's one-at-a-time p50 is more than 20 % above the smallest's", () => {
    const flat = latencyFlatness([point(1_000, 0.1), point(100_000, 0.1, { seq: 1.21, sat: 1, cpu: 1 }), point(1_000_000, 0.1, { seq: 1.0, sat: 1, cpu: 1 })])
    expect(flat.p50GrowthPercent).toBeCloseTo(21, 5)
    expect(flat.withinTarget).toBe(false)
  })

  it("compares the sizes' medians for results from before the side-by-side rounds", () => {
    const old = (runs: number, p50: number) => {
      const { getSequential: _, toSmallest: __, ...rest } = point(runs, p50)
      return rest
    }
    const flat = latencyFlatness([old(1_000, 0.1), old(1_000_000, 0.15)])
    expect(flat.p50GrowthPercent).toBeCloseTo(50, 5)
    expect(flat.withinTarget).toBe(false)
    expect(flat.saturatedP50GrowthPercent).toBeUndefined()
  })

  it("never calls a single store flat", () => {
    expect(latencyFlatness([point(1_000, 0.1)]).withinTarget).toBe(false)
  })
})
