/**
 * Scale: the emulator (0.21.0, file storage) holding 1k, 100k and 1M settled keyed runs — GET
 * /v1/runs/{id} on random runs settled within the hour (the stores served at once and measured
 * side by side, round by round), the same after the 1 h status sweep (each GET then reads the
 * durable ledger row), a keyed POST (its admission prunes the ledger), and the process's RSS. Then
 * the retention sweep's cost against the number of expired runs, timed in process on the
 * emulator's own code (features/runs/Sweep.ts, the ledger prune of features/runs/RunLedger.ts). Targets: GET p50
 * flat within 20 %, RSS ≤ 150 MiB at 1M runs.
 */
import Database from "better-sqlite3"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pruneExpired } from "../packages/emulator/src/features/runs/RunLedger.js"
import { sweepSettledBatches as sweepSettled } from "../packages/emulator/src/features/runs/SettledRuns.js"
import { Storage, StorageLive } from "../packages/emulator/src/services/Storage.js"
import { STORAGE_SCHEMA } from "../packages/emulator/src/StorageSchema.js"
import { startChild } from "./child.js"
import { type LoadResult, type LoadSpec, type LoadTarget, controlCpu, readControl, runLoad } from "./load.js"
import { scaleRunId, SCALE_KEY } from "./servers/scaleIds.js"
import { percentile, spread, type Spread } from "./stats.js"

type GetLoad = { readonly rps: Spread; readonly p50Ms: Spread; readonly p99Ms: Spread; readonly cpuMicrosPerRequest: Spread }

export interface ScalePoint {
  readonly runs: number
  readonly seedSeconds: number
  /** The bundled CLI's RSS with the store seeded (after seeding and while serving GETs). */
  readonly rssMiB: number
  /** The same process before its first run: the empty emulator (the bundled CLI). */
  readonly rssEmptyMiB: number
  /**
   * GET on random runs settled within the hour (their status in settled_runs), `connections` at
   * once as fast as the server answers: the server's one thread is the bottleneck, so p50 is about
   * connections × its time per GET, and follows CPU per GET.
   */
  readonly getInMemory: GetLoad
  /** The same GETs one at a time over one keep-alive connection: what a test waits for one GET. */
  readonly getSequential?: GetLoad
  /**
   * Each round's figure divided by the smallest store's in the same round. Every size's rounds run
   * interleaved with the others' (all stores seeded and served at once, the order rotated each
   * round), so a machine that slows down for a while slows every size alike.
   */
  readonly toSmallest?: { readonly saturatedP50: Spread; readonly sequentialP50: Spread; readonly cpuMicrosPerRequest: Spread }
  /**
   * The warm-up before those rounds, in 1 s windows: µs of CPU per GET and p50 ms in each. A freshly
   * seeded large store costs more for several seconds (1M runs: ~150 µs in the first second, ~55
   * in the second, ~45 from the fourth; 1k runs: steady by the third), so the rounds follow
   * `warmupSeconds` of GETs, the same at every size, and this curve shows what came before.
   */
  readonly getWarmup?: ReadonlyArray<{ readonly cpuMicrosPerRequest: number; readonly p50Ms: number }>
  /** The first GET after the clock moved past the 1 h status TTL: it runs the full sweep of all N statuses. */
  readonly sweepingGetMs: number
  /** Sequential GETs right after that one, while the sweep deletes the expired statuses in the background. */
  readonly getsDuringSweep?: { readonly count: number; readonly p50Ms: number; readonly maxMs: number }
  readonly rssAfterSweepMiB: number
  /** GET on random runs after the sweep: each reads its ledger row (0.21.0 hydration). */
  readonly getFromLedger: GetLoad
  /** POST /v1/runs with a fresh Idempotency-Key: admission prunes, looks up and inserts in the ledger. */
  readonly keyedPost: { readonly rps: number; readonly p50Ms: number; readonly p99Ms: number; readonly cpuMicrosPerRequest: number }
}

export interface SweepPoint {
  readonly expired: number
  /** The hourly sweep of settled statuses (sweepSettled) with `expired` expired ones plus 1k fresh, ms. */
  readonly statusSweepMs: Spread
  /** The ledger prune (DELETE of settled rows older than 24 h) with `expired` such rows among them, ms. */
  readonly ledgerPruneMs: Spread
}

export interface ScaleResult {
  readonly pin: "0.21.0"
  readonly seeding: string
  readonly points: ReadonlyArray<ScalePoint>
  readonly latencyFlat: {
    /** One GET at a time (getSequential), median of the rounds' ratios to the smallest store; the verdict. */
    readonly p50GrowthPercent: number
    /** As many connections as the load uses elsewhere (getInMemory), the same way. */
    readonly saturatedP50GrowthPercent?: number
    readonly saturatedWithinTarget?: boolean
    /** CPU per GET (getInMemory), the same way. */
    readonly cpuGrowthPercent?: number
    readonly p50SpreadPercent: number
    readonly withinTarget: boolean
    readonly target: string
  }
  readonly rssAtLargest: { readonly runs: number; readonly rssMiB: number; readonly withinTarget: boolean; readonly target: string }
  readonly sweep: ReadonlyArray<SweepPoint>
  readonly notes: ReadonlyArray<string>
}

const MiB = 2 ** 20
const summarize = (rs: ReadonlyArray<LoadResult>): GetLoad => ({
  rps: spread(rs.map((r) => r.acceptedPerSecond)),
  p50Ms: spread(rs.map((r) => r.p50Ms)),
  p99Ms: spread(rs.map((r) => r.p99Ms)),
  cpuMicrosPerRequest: spread(rs.map((r) => r.cpuMicrosPerRequest))
})

interface ScaleOptions {
  readonly rounds: number
  readonly seconds: number
  readonly warmupSeconds: number
  readonly connections: number
  readonly log: (s: string) => void
}

/** One seeded store: the bundled CLI serving it, and what seeding left. */
interface SeededStore {
  readonly runs: number
  readonly child: Awaited<ReturnType<typeof startChild>>
  readonly target: LoadTarget
  readonly seedSeconds: number
  readonly rssAtStart: number
  readonly randomGet: LoadSpec
}

const seedStore = async (runs: number, opts: ScaleOptions): Promise<SeededStore> => {
  opts.log(`  seeding ${runs} runs …`)
  const child = await startChild("bench/servers/scaled-emulator.ts", ["--runs", String(runs)], { timeoutMs: 30 * 60_000 })
  const seedSeconds = Number(child.extra[0] ?? 0) / 1000
  const seeded = await readControl(child.controlPort)
  opts.log(`  ${runs} runs: seeded in ${seedSeconds.toFixed(1)} s, RSS of the bundled CLI ${(seeded.rss / MiB).toFixed(0)} MiB`)
  return {
    runs,
    child,
    seedSeconds,
    rssAtStart: seeded.rss,
    target: { baseUrl: child.baseUrl, apiKey: SCALE_KEY, runId: child.runId, cpuMicros: controlCpu(child.controlPort) },
    randomGet: { name: "get", method: "GET", path: () => "/", pickPath: () => `/v1/runs/${scaleRunId(Math.floor(Math.random() * runs))}` }
  }
}

const warmUp = async (store: SeededStore, label: string, opts: ScaleOptions) => {
  const windows: Array<{ cpuMicrosPerRequest: number; p50Ms: number }> = []
  for (let s = 0; s < opts.warmupSeconds; s++) {
    const w = await runLoad(store.randomGet, store.target, 1, opts.connections)
    windows.push({ cpuMicrosPerRequest: w.cpuMicrosPerRequest, p50Ms: w.p50Ms })
  }
  opts.log(`  ${store.runs} runs, GET ${label} warm-up, µs CPU per GET in 1 s windows: ${windows.map((w) => w.cpuMicrosPerRequest.toFixed(0)).join(" ")}`)
  return windows
}

interface SideBySide {
  readonly saturated: ReadonlyArray<LoadResult>
  readonly sequential: ReadonlyArray<LoadResult>
}

/**
 * GETs within the hour on every store, side by side: in each round every store answers a
 * saturating load and a one-at-a-time load for a second each, after a second of GETs not
 * measured, the stores in a rotated order.
 * `rounds × seconds` such rounds: the same time as `rounds` windows of `seconds`, cut finer,
 * because this machine's speed moves from one second to the next (CPU per GET of one store
 * read 37–81 µs across 3 s windows of one run).
 */
const interleavedGets = async (stores: ReadonlyArray<SeededStore>, opts: ScaleOptions): Promise<ReadonlyArray<SideBySide>> => {
  const out = stores.map(() => ({ saturated: [] as Array<LoadResult>, sequential: [] as Array<LoadResult> }))
  const rounds = opts.rounds * opts.seconds
  for (let round = 0; round < rounds; round++) {
    const line: Array<string> = []
    for (let k = 0; k < stores.length; k++) {
      const i = (k + round) % stores.length
      const store = stores[i] as SeededStore
      // unmeasured, so that the measured second never starts on a store that sat idle while the
      // others were measured (a precaution: evidence/benchmarks/ runs 2 and 3 read alike without and with it)
      await runLoad(store.randomGet, store.target, 1, opts.connections)
      const saturated = await runLoad(store.randomGet, store.target, 1, opts.connections)
      const sequential = await runLoad(store.randomGet, store.target, 1, 1)
      for (const r of [saturated, sequential]) if (r.errors > 0) opts.log(`    warning: ${r.errors} non-2xx answers`)
      out[i]?.saturated.push(saturated)
      out[i]?.sequential.push(sequential)
      line.push(`${store.runs}: ${saturated.p50Ms.toFixed(3)} ms, ${saturated.cpuMicrosPerRequest.toFixed(0)} µs / ${sequential.p50Ms.toFixed(3)} ms`)
    }
    opts.log(`  GET within the hour, round ${round + 1}/${rounds} (runs: p50 and CPU with ${opts.connections} connections / p50 one at a time): ${line.join(" · ")}`)
  }
  return out
}

/** Round by round, a figure of one store over the smallest store's. */
const roundRatios = (mine: ReadonlyArray<LoadResult>, smallest: ReadonlyArray<LoadResult>, f: (r: LoadResult) => number): Spread =>
  spread(mine.map((r, round) => f(r) / f(smallest[round] as LoadResult)))

/** The rest of a store's measurements, one store at a time: keyed POST, the 1 h sweep, GETs from the ledger. */
const finishStore = async (store: SeededStore, measured: SideBySide, toSmallest: ScalePoint["toSmallest"], getWarmup: ScalePoint["getWarmup"], opts: ScaleOptions): Promise<ScalePoint> => {
  const { child, runs, target, randomGet } = store
  const measureGets = async (label: string) => {
    const rs: Array<LoadResult> = []
    for (let round = 0; round < opts.rounds; round++) {
      const r = await runLoad(randomGet, target, opts.seconds, opts.connections)
      if (r.errors > 0) opts.log(`    warning: ${r.errors} non-2xx answers`)
      rs.push(r)
      opts.log(`  ${runs} runs, GET ${label} round ${round + 1}/${opts.rounds}: ${r.acceptedPerSecond.toFixed(0)} req/s, p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms`)
    }
    return summarize(rs)
  }
  // what the process holds while it serves the store, after its GET rounds
  const rssServing = Math.max(store.rssAtStart, (await readControl(child.controlPort)).rss)
  const post = await runLoad({ name: "post", method: "POST", path: () => "/v1/runs", body: JSON.stringify({ input: "hi" }), uniqueKey: true }, target, opts.seconds, 2)
  opts.log(`  ${runs} runs, keyed POST: ${post.acceptedPerSecond.toFixed(0)} req/s, p50 ${post.p50Ms.toFixed(2)} ms`)
  await new Promise((r) => setTimeout(r, 500))
  // past the 1 h status TTL (and within the 24 h ledger retention): the next request sweeps
  const clock = await fetch(`${child.baseUrl}/__admin/clock`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hermetic-admin-key": SCALE_KEY },
    body: JSON.stringify({ advance: 3700 })
  })
  if (clock.status >= 300) throw new Error(`clock advance refused: ${clock.status}`)
  const t0 = performance.now()
  const first = await fetch(`${child.baseUrl}/v1/runs/${scaleRunId(1)}`, { headers: { authorization: `Bearer ${SCALE_KEY}` } })
  await first.arrayBuffer()
  const sweepingGetMs = performance.now() - t0
  // the sweep goes on in the background: how long a request waits meanwhile (sequential GETs for a while)
  const during: Array<number> = []
  const probeUntil = performance.now() + Math.max(2000, opts.seconds * 1000)
  while (performance.now() < probeUntil) {
    const p0 = performance.now()
    const r = await fetch(`${child.baseUrl}/v1/runs/${scaleRunId(Math.floor(Math.random() * runs))}`, { headers: { authorization: `Bearer ${SCALE_KEY}` } })
    await r.arrayBuffer()
    during.push(performance.now() - p0)
  }
  const getsDuringSweep = { count: during.length, p50Ms: percentile(during, 50), maxMs: Math.max(...during) }
  opts.log(`  ${runs} runs: ${during.length} GETs while the sweep runs, p50 ${getsDuringSweep.p50Ms.toFixed(2)} ms, longest ${getsDuringSweep.maxMs.toFixed(1)} ms`)
  const swept = await readControl(child.controlPort)
  opts.log(`  ${runs} runs: the sweeping GET took ${sweepingGetMs.toFixed(1)} ms; RSS after sweep ${(swept.rss / MiB).toFixed(0)} MiB`)
  await warmUp(store, "(status from the ledger)", opts)
  const getFromLedger = await measureGets("(status from the ledger)")
  return {
    runs,
    seedSeconds: store.seedSeconds,
    rssMiB: rssServing / MiB,
    rssEmptyMiB: Number(child.extra[1] ?? 0) / MiB,
    getInMemory: summarize(measured.saturated),
    getSequential: summarize(measured.sequential),
    ...(toSmallest === undefined ? {} : { toSmallest }),
    ...(getWarmup === undefined ? {} : { getWarmup }),
    sweepingGetMs,
    getsDuringSweep,
    rssAfterSweepMiB: swept.rss / MiB,
    getFromLedger,
    keyedPost: { rps: post.acceptedPerSecond, p50Ms: post.p50Ms, p99Ms: post.p99Ms, cpuMicrosPerRequest: post.cpuMicrosPerRequest }
  }
}

// ---------------------------------------------------------------------------------------------
// The retention sweep against the number of expired runs, in process.

const NOW = 2_000_000_000
const LIVE = 1000

/**
 * Opens a fresh file through the emulator's StorageLive (its DDL and start-up statements), fills
 * it over a second connection with `expired` rows past retention and 1k fresh ones, then times
 * `effect` on the emulator's connection.
 */
const timedOnRows = async (
  insertSql: string,
  values: (key: string, runId: string, at: number) => ReadonlyArray<string | number>,
  expired: number,
  expiredAt: number,
  effect: Effect.Effect<unknown, never, SqlClient.SqlClient | Storage>
): Promise<number> => {
  const dir = mkdtempSync(join(tmpdir(), "hermetic-sweep-"))
  const file = join(dir, "emulator.db")
  try {
    const program = Effect.gen(function*() {
      yield* Effect.sync(() => {
        const db = new Database(file)
        const insert = db.prepare(insertSql)
        db.transaction(() => {
          for (let i = 0; i < expired + LIVE; i++) insert.run(...values(`k${i}`, scaleRunId(i), i < expired ? expiredAt : NOW - 10))
        })()
        db.close()
      })
      const t0 = performance.now()
      yield* effect
      return performance.now() - t0
    })
    return await Effect.runPromise(program.pipe(Effect.provide(StorageLive(file, STORAGE_SCHEMA)), Effect.orDie))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The hourly sweep of settled statuses (features/runs/SettledRuns.ts sweepSettled): a DELETE over settled_runs. */
const settledSweep = (expired: number): Promise<number> =>
  timedOnRows(
    "INSERT INTO settled_runs (namespace, run_id, status, updated_at, body) VALUES ('default', ?, 'completed', ?, ?)",
    (_key, runId, at) => [runId, at, `{"run_id": "${runId}", "status": "completed"}`],
    expired,
    NOW - 7200,
    sweepSettled("default", { seq: 1, wall: NOW })
  )

/** The ledger prune (features/runs/RunLedger.ts pruneExpired): settled rows older than 24 h. */
const ledgerPrune = (expired: number): Promise<number> =>
  timedOnRows(
    "INSERT INTO run_ledger (namespace, scope, idempotency_key, fingerprint, run_id, status_json, status, owner, created_at, updated_at) VALUES ('default', 'scope', ?, 'fp', ?, '{}', 'completed', 'o', ?, ?)",
    (key, runId, at) => [key, runId, at, at],
    expired,
    NOW - 90_000,
    pruneExpired("default", NOW)
  )

export const sweepCost = async (sizes: ReadonlyArray<number>, rounds: number, log: (s: string) => void): Promise<ReadonlyArray<SweepPoint>> => {
  const out: Array<SweepPoint> = []
  for (const expired of sizes) {
    const sweeps: Array<number> = []
    const prunes: Array<number> = []
    for (let round = 0; round < rounds; round++) {
      sweeps.push(await settledSweep(expired))
      prunes.push(await ledgerPrune(expired))
    }
    const point = { expired, statusSweepMs: spread(sweeps), ledgerPruneMs: spread(prunes) }
    log(`  sweep of ${expired} expired runs: settled statuses ${point.statusSweepMs.median.toFixed(2)} ms, ledger prune ${point.ledgerPruneMs.median.toFixed(2)} ms`)
    out.push(point)
  }
  return out
}

/**
 * Flat within 20 %: no larger store's GET p50, one GET at a time, more than 20 % above the
 * smallest store's (the median of the rounds' ratios, measured side by side). The same for the
 * saturating load and for CPU per GET are reported beside it. Results from before the
 * side-by-side rounds (no `toSmallest`) compare the sizes' medians.
 */
export const latencyFlatness = (points: ReadonlyArray<ScalePoint>): ScaleResult["latencyFlat"] => {
  const larger = points.slice(1)
  const growth = (f: (p: ScalePoint) => number | undefined) => {
    const ratios = larger.map(f).filter((r): r is number => r !== undefined)
    return ratios.length === 0 ? undefined : (Math.max(...ratios) - 1) * 100
  }
  const base = points[0]?.getInMemory.p50Ms.median ?? 0
  const byMedians = growth((p) => (base === 0 ? undefined : p.getInMemory.p50Ms.median / base)) ?? 0
  const sequential = growth((p) => p.toSmallest?.sequentialP50.median)
  const saturated = growth((p) => p.toSmallest?.saturatedP50.median)
  const cpu = growth((p) => p.toSmallest?.cpuMicrosPerRequest.median)
  const p50s = points.map((p) => (p.getSequential ?? p.getInMemory).p50Ms.median)
  const lo = Math.min(...p50s)
  const headline = sequential ?? byMedians
  return {
    p50GrowthPercent: headline,
    ...(saturated === undefined ? {} : { saturatedP50GrowthPercent: saturated, saturatedWithinTarget: saturated <= 20 }),
    ...(cpu === undefined ? {} : { cpuGrowthPercent: cpu }),
    p50SpreadPercent: lo === 0 ? 0 : ((Math.max(...p50s) - lo) / lo) * 100,
    withinTarget: points.length > 1 && headline <= 20,
    target:
      sequential === undefined
        ? "GET p50 (settled within the hour) at no store size more than 20 % above the smallest store's"
        : "GET p50 one at a time (settled within the hour) at no store size more than 20 % above the smallest store's, side by side (median of the rounds' ratios)"
  }
}

export const scale = async (opts: ScaleOptions & {
  readonly sizes: ReadonlyArray<number>
  readonly sweepSizes: ReadonlyArray<number>
}): Promise<ScaleResult> => {
  // every store seeded and served at once, so that their GET rounds can interleave
  const stores: Array<SeededStore> = []
  const points: Array<ScalePoint> = []
  try {
    for (const runs of opts.sizes) stores.push(await seedStore(runs, opts))
    const warmups = []
    for (const store of stores) warmups.push(await warmUp(store, "(within the hour)", opts))
    const measured = await interleavedGets(stores, opts)
    const smallest = measured[0] as SideBySide
    for (const [i, store] of stores.entries()) {
      const mine = measured[i] as SideBySide
      const toSmallest = i === 0
        ? undefined
        : {
          saturatedP50: roundRatios(mine.saturated, smallest.saturated, (r) => r.p50Ms),
          sequentialP50: roundRatios(mine.sequential, smallest.sequential, (r) => r.p50Ms),
          cpuMicrosPerRequest: roundRatios(mine.saturated, smallest.saturated, (r) => r.cpuMicrosPerRequest)
        }
      if (toSmallest !== undefined) {
        opts.log(
          `  ${store.runs} runs over ${stores[0]?.runs} runs, median of the rounds: p50 one at a time ×${toSmallest.sequentialP50.median.toFixed(3)}, ` +
            `p50 with ${opts.connections} connections ×${toSmallest.saturatedP50.median.toFixed(3)}, CPU per GET ×${toSmallest.cpuMicrosPerRequest.median.toFixed(3)}`
        )
      }
      points.push(await finishStore(store, mine, toSmallest, warmups[i], opts))
      await store.child.stop()
    }
  } finally {
    for (const store of stores) await store.child.stop()
  }
  const largest = points[points.length - 1]
  const notes: Array<string> = [
    "A settled run's status is read from the settled_runs table (primary key namespace, run_id) and answered as stored bytes; after the 1 h sweep, 0.21.0 reads and decodes the ledger row (unique index on namespace, run_id) on every access.",
    "The keyed POST's admission runs the ledger prune (DELETE … WHERE updated_at < now − 24 h AND status IN (…)) in its transaction; an index on (namespace, status, updated_at) keeps it from reading the whole ledger, so a keyed POST costs the same at 1k and 1M stored runs.",
    "Measured on the bundled CLI (`node packages/emulator/dist/hermes-emulator-launcher.cjs serve`), not through tsx: RSS (VmRSS) and CPU are that process's own, read from /proc (CPU in 10 ms ticks); RSS is the larger of right after seeding and after the first GET rounds, with no forced GC."
  ]
  return {
    pin: "0.21.0",
    seeding:
      "one keyed run played through POST /v1/runs on the bundled CLI, then everything it left copied N times with fresh ids: its rows in settled_runs, " +
      "run_ledger, hermes_sessions and hermes_messages bulk-inserted into the CLI's SQLite file over a second connection (a settled run leaves nothing in " +
      "process memory since settled statuses moved to settled_runs). Playing 1M keyed runs over HTTP would take ~40 min at ~400/s and leave the same state.",
    points,
    latencyFlat: latencyFlatness(points),
    rssAtLargest: {
      runs: largest?.runs ?? 0,
      rssMiB: largest?.rssMiB ?? 0,
      withinTarget: largest !== undefined && largest.runs >= 1_000_000 && largest.rssMiB <= 150,
      target: "RSS ≤ 150 MiB with 1M runs stored (bundled CLI)"
    },
    sweep: await sweepCost(opts.sweepSizes, opts.rounds, opts.log),
    notes
  }
}

