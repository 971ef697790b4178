/**
 * The emulator against a bare node:http + better-sqlite3 server doing the same work, measured side
 * by side in one run: requests/s, p50/p99 and server CPU per request, each the median of several
 * alternating rounds (min–max shown). Target: the emulator within 2× of the bare server.
 */
import { type Child, startChild } from "./child.js"
import { controlCpu, type LoadResult, type LoadSpec, type LoadTarget, runLoad } from "./load.js"
import { fmt, fmtSpread, spread, type Spread } from "./stats.js"

const API_KEY = "bench-key-0123456789abcdef"

/** A bench child as a load target: its address, the bench key, its seeded run, and its CPU from its control port. */
export const targetOf = (c: Child): LoadTarget => ({ baseUrl: c.baseUrl, apiKey: API_KEY, runId: c.runId, cpuMicros: controlCpu(c.controlPort) })

export const SPECS: ReadonlyArray<LoadSpec> = [
  { name: "GET /v1/runs/{id}", method: "GET", path: (id) => `/v1/runs/${id}` },
  { name: "POST /v1/runs (no key)", method: "POST", path: () => "/v1/runs", body: JSON.stringify({ input: "hi" }) },
  { name: "POST /v1/runs (Idempotency-Key)", method: "POST", path: () => "/v1/runs", body: JSON.stringify({ input: "hi" }), uniqueKey: true }
]

type Side = { readonly rps: Spread; readonly p50: Spread; readonly p99: Spread; readonly cpu: Spread }

export interface SideBySide {
  readonly name: string
  readonly emulator: Side
  readonly bare: Side
  readonly throughputRatio: number
  readonly cpuRatio: number
  /**
   * The same emulator served through @effect/platform-node (bench/servers/emulator-platform.ts): the
   * measurement behind the socket adapter's choice; `throughputShare` is its req/s ÷ the lean adapter's.
   */
  readonly platform?: Side & { readonly throughputShare: number }
}

const summarize = (rs: ReadonlyArray<LoadResult>) => ({
  rps: spread(rs.map((r) => r.requestsPerSecond)),
  p50: spread(rs.map((r) => r.p50Ms)),
  p99: spread(rs.map((r) => r.p99Ms)),
  cpu: spread(rs.map((r) => r.cpuMicrosPerRequest))
})

export const emulatorVsBare = async (opts: { rounds: number; seconds: number; warmupSeconds: number; log: (s: string) => void }) => {
  const emulator = await startChild("bench/servers/emulator.ts")
  const bare = await startChild("bench/servers/bare.ts")
  const platform = await startChild("bench/servers/emulator-platform.ts")
  const results: Array<SideBySide> = []
  try {
    for (const spec of SPECS) {
      const emu: Array<LoadResult> = []
      const ref: Array<LoadResult> = []
      const plat: Array<LoadResult> = []
      for (let round = 0; round < opts.rounds; round++) {
        // alternate the order so neither side always runs on a warmer machine
        const sides = [["emulator", emulator, emu], ["bare", bare, ref], ["platform-node", platform, plat]] as const
        const order = round % 2 === 0 ? sides : [...sides].reverse()
        for (const [label, server, sink] of order) {
          await runLoad(spec, targetOf(server), opts.warmupSeconds) // warm-up
          const r = await runLoad(spec, targetOf(server), opts.seconds)
          if (r.errors > 0) opts.log(`  warning: ${label} answered ${r.errors} errors/non-2xx on ${spec.name}`)
          sink.push(r)
          opts.log(`  ${spec.name} round ${round + 1}/${opts.rounds} ${label}: ${fmt(r.requestsPerSecond)} req/s, ${fmt(r.cpuMicrosPerRequest)} µs CPU/req`)
        }
      }
      const e = summarize(emu)
      const b = summarize(ref)
      const p = summarize(plat)
      results.push({
        name: spec.name,
        emulator: e,
        bare: b,
        throughputRatio: b.rps.median / e.rps.median,
        cpuRatio: e.cpu.median / b.cpu.median,
        platform: { ...p, throughputShare: p.rps.median / e.rps.median }
      })
    }
  } finally {
    await emulator.stop()
    await bare.stop()
    await platform.stop()
  }
  return results
}

export const renderEmulatorVsBare = (rows: ReadonlyArray<SideBySide>): string => {
  const lines = [
    "Both servers run as plain JavaScript on node, the emulator as its built package (dist/, what npm installs; bench/child.ts), loaded by autocannon on the same machine. `npm run bench:calibrate` shows how this figure answers a server's own work here: the bare reference with 100 µs of work added per request measures well over 100 µs more.",
    "",
    "| operation | emulator req/s | bare req/s | emulator p50 / p99 ms | bare p50 / p99 ms | emulator CPU µs/req | bare CPU µs/req | bare÷emulator throughput | emulator÷bare CPU |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  ]
  for (const r of rows) {
    lines.push(
      `| ${r.name} | ${fmtSpread(r.emulator.rps)} | ${fmtSpread(r.bare.rps)} | ${fmt(r.emulator.p50.median, 2)} / ${fmt(r.emulator.p99.median, 2)} | ${fmt(r.bare.p50.median, 2)} / ${fmt(r.bare.p99.median, 2)} | ${fmtSpread(r.emulator.cpu)} | ${fmtSpread(r.bare.cpu)} | **${fmt(r.throughputRatio, 2)}×** | **${fmt(r.cpuRatio, 2)}×** |`
    )
  }
  const withPlatform = rows.filter((r) => r.platform !== undefined)
  if (withPlatform.length > 0) {
    lines.push(
      "",
      "The emulator's socket through @effect/platform-node (NodeHttpServer, logger and tracing off) instead of its lean node:http adapter, same runs:",
      "",
      "| operation | platform-node req/s | lean adapter req/s | platform-node CPU µs/req | lean adapter CPU µs/req | platform-node ÷ lean throughput |",
      "| --- | --- | --- | --- | --- | --- |"
    )
    for (const r of withPlatform) {
      const p = r.platform as NonNullable<SideBySide["platform"]>
      lines.push(`| ${r.name} | ${fmtSpread(p.rps)} | ${fmtSpread(r.emulator.rps)} | ${fmtSpread(p.cpu)} | ${fmtSpread(r.emulator.cpu)} | **${fmt(p.throughputShare * 100)} %** |`)
    }
  }
  return lines.join("\n")
}
