/**
 * Where the emulator's event loop blocks, for the soak (`npm run reliability -- --soak
 * --soak-trace FILE`): preloaded into the bundled CLI (`node --require bench/tools/stall-trace.ts`,
 * which reaches worker threads too; Node's own type stripping, so only erasable syntax here), it
 * records
 * - every event-loop block of at least STALL_MS (a 2 ms timer that fired late; the block is the
 *   lateness), with the thread's CPU time during it,
 * - every SQLite statement that took at least SLOW_SQL_MS, with its SQL and whether a WAL
 *   checkpoint ran inside it (the `-shm` file's backfill count moved),
 * - every GC pause of at least SLOW_GC_MS,
 * and on exit writes them, with each block attributed to the statements and GC pauses inside it,
 * as JSON to $HERMETIC_STALL_TRACE. better-sqlite3 is synchronous: a statement blocks the loop
 * for as long as it runs, a checkpoint's copy and fsyncs included.
 *
 * In a worker thread (the WAL checkpointer's) it records every statement instead, to
 * $HERMETIC_STALL_TRACE.thread-N.json every 2 s; the main thread reads those at exit, so a
 * checkpoint the worker ran while a main statement was running is not counted as that statement's.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { basename, dirname, join } from "node:path"
import { PerformanceObserver } from "node:perf_hooks"
import { isMainThread, threadId } from "node:worker_threads"

const STALL_MS = 10
const SLOW_SQL_MS = 2
const SLOW_GC_MS = 2
const TICK_MS = 2

interface Interval {
  readonly at: number
  readonly ms: number
}
interface SlowSql extends Interval {
  readonly sql: string
  readonly checkpoint: boolean
}

const out = process.env["HERMETIC_STALL_TRACE"]
// epoch milliseconds: comparable between threads, whose performance.now() starts apart
const now = () => performance.timeOrigin + performance.now()
const workerStatements: Array<Interval & { readonly sql: string }> = []
const blocks: Array<Interval & { readonly cpuMs: number }> = []
const slowSql: Array<SlowSql> = []
const gcs: Array<Interval & { readonly kind: number }> = []
let statements = 0
let checkpoints = 0
let checkpointMs = 0

// the `-shm` wal-index: WalCkptInfo.nBackfill (frames copied back into the database) sits at byte 96
const shmBuffer = Buffer.alloc(4)
const backfill = (db: { readonly name: string }): number | undefined => {
  const shm = `${db.name}-shm`
  if (!existsSync(shm)) return undefined
  const fd = openSync(shm, "r")
  try {
    return readSync(fd, shmBuffer, 0, 4, 96) === 4 ? shmBuffer.readUInt32LE(0) : undefined
  } finally {
    closeSync(fd)
  }
}

type Method = (this: Statement, ...args: Array<unknown>) => unknown
interface Statement {
  readonly source: string
  readonly reader: boolean
  readonly database: { readonly name: string; readonly memory: boolean }
}

// the bundle requires better-sqlite3 from packages/emulator: the same module instance from there
const requireFromEmulator = createRequire(join(process.cwd(), "packages/emulator/package.json"))
const Database = requireFromEmulator("better-sqlite3") as new (file: string) => { prepare(sql: string): object; close(): void }
const probe = new Database(":memory:")
const proto = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<string, Method>
probe.close()
for (const name of ["run", "get", "all"]) {
  const original = proto[name] as Method
  proto[name] = function (this: Statement, ...args: Array<unknown>) {
    statements++
    if (!isMainThread) {
      const t = now()
      try {
        return original.apply(this, args)
      } finally {
        workerStatements.push({ at: t, ms: now() - t, sql: this.source })
      }
    }
    const file = !this.reader && !this.database.memory
    if (file) logFile ??= `${this.database.name}-wal`
    const before = file ? backfill(this.database) : undefined
    const t = now()
    try {
      return original.apply(this, args)
    } finally {
      const ms = now() - t
      const after = file ? backfill(this.database) : undefined
      // nBackfill grows when a checkpoint copies frames; a restarted WAL sets it back to 0
      const checkpoint = before !== undefined && after !== undefined && after > before
      if (checkpoint) {
        checkpoints++
        checkpointMs += ms
      }
      if (ms >= SLOW_SQL_MS || checkpoint) slowSql.push({ at: t, ms, sql: this.source.replace(/\s+/g, " ").slice(0, 100), checkpoint })
    }
  }
}


// the log's size on disk, sampled each second (SQLite reuses the file from its start after a restart, so it never shrinks)
let logFile: string | undefined
let maxLogBytes = 0
if (isMainThread) {
  setInterval(() => {
    if (logFile !== undefined && existsSync(logFile)) maxLogBytes = Math.max(maxLogBytes, statSync(logFile).size)
  }, 1000).unref()
}

const flushWorker = () => {
  if (out !== undefined) writeFileSync(`${out}.thread-${threadId}.json`, JSON.stringify({ threadId, statements: workerStatements }))
}
if (!isMainThread) {
  setInterval(flushWorker, 2000).unref()
  process.on("exit", flushWorker)
}

new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (!isMainThread) continue
    if (e.duration >= SLOW_GC_MS) gcs.push({ at: performance.timeOrigin + e.startTime, ms: e.duration, kind: ((e as { readonly detail?: { readonly kind?: number } }).detail)?.kind ?? 0 })
  }
}).observe({ entryTypes: ["gc"] })

// this thread's CPU time beside each block: a block with little of it was spent descheduled (a
// loaded machine) or waiting on I/O, not running the emulator's code
const cpuMs = () => {
  const u = process.threadCpuUsage()
  return (u.user + u.system) / 1000
}
let last = now()
let lastCpu = cpuMs()
if (isMainThread) {
  setInterval(() => {
    const t = now()
    const cpu = cpuMs()
    const late = t - last - TICK_MS
    if (late >= STALL_MS) blocks.push({ at: last + TICK_MS, ms: late, cpuMs: cpu - lastCpu })
    last = t
    lastCpu = cpu
  }, TICK_MS).unref()
}

/** The statements the worker threads ran (their files beside `out`). */
const workerRuns = (file: string): Array<Interval & { readonly sql: string }> =>
  readdirSync(dirname(file))
    .filter((name) => name.startsWith(`${basename(file)}.thread-`))
    .flatMap((name) => (JSON.parse(readFileSync(join(dirname(file), name), "utf8")) as { statements: Array<Interval & { sql: string }> }).statements)
const overlaps = (a: Interval, b: Interval) => a.at < b.at + b.ms && b.at < a.at + a.ms

const inside = (b: Interval, x: Interval) => x.at >= b.at - 1 && x.at < b.at + b.ms
const round = (n: number) => Number(n.toFixed(2))

process.on("exit", () => {
  if (out === undefined || !isMainThread) return
  const worker = workerRuns(out)
  const workerCheckpoints = worker.filter((w) => w.sql.includes("wal_checkpoint"))
  // the log's backfill moved during a main statement because the worker copied frames meanwhile: not this statement's checkpoint
  for (const [i, s] of slowSql.entries()) {
    if (s.checkpoint && workerCheckpoints.some((w) => overlaps(w, s))) slowSql[i] = { ...s, checkpoint: false }
  }
  const mainCheckpoints = slowSql.filter((s) => s.checkpoint)
  const attributed = blocks.map((b) => {
    const sql = slowSql.filter((s) => inside(b, s))
    const gc = gcs.filter((g) => inside(b, g))
    const sqlMs = sql.reduce((n, s) => n + s.ms, 0)
    const gcMs = gc.reduce((n, g) => n + g.ms, 0)
    return {
      at: round(b.at),
      ms: round(b.ms),
      cpuMs: round(b.cpuMs),
      sqlMs: round(sqlMs),
      checkpointMs: round(sql.filter((s) => s.checkpoint).reduce((n, s) => n + s.ms, 0)),
      gcMs: round(gcMs),
      otherMs: round(Math.max(0, b.ms - sqlMs - gcMs)),
      sql: sql.map((s) => ({ ms: round(s.ms), checkpoint: s.checkpoint, sql: s.sql }))
    }
  })
  const sum = (xs: ReadonlyArray<{ readonly ms: number }>) => round(xs.reduce((n, x) => n + x.ms, 0))
  const group = (xs: ReadonlyArray<{ readonly ms: number }>) => ({ count: xs.length, ms: sum(xs), maxMs: round(Math.max(0, ...xs.map((x) => x.ms))) })
  // each block under its first cause: a checkpoint inside it, other SQL ≥ 2 ms, a GC pause, else
  // its own code when the thread was on CPU for most of it, else descheduled or waiting
  const cause = (b: (typeof attributed)[number]) =>
    b.checkpointMs > 0 ? "checkpoint" : b.sqlMs > 0 ? "sql" : b.gcMs > 0 ? "gc" : b.cpuMs >= b.ms / 2 ? "js on CPU" : "off CPU"
  const byCause = Object.fromEntries(["checkpoint", "sql", "gc", "js on CPU", "off CPU"].map((c) => [c, group(attributed.filter((b) => cause(b) === c))]))
  writeFileSync(
    out,
    JSON.stringify(
      {
        stallMs: STALL_MS,
        summary: { blocks: group(attributed), atLeast20Ms: group(attributed.filter((b) => b.ms >= 20)), byCause },
        statements,
        maxLogMiB: round(maxLogBytes / 1048576),
        mainThreadCheckpoints: mainCheckpoints.length,
        mainThreadCheckpointMs: round(mainCheckpoints.reduce((n, s) => n + s.ms, 0)),
        backfillMovedDuringMainStatements: checkpoints,
        backfillMovedMs: round(checkpointMs),
        workerCheckpoints: {
          requests: workerCheckpoints.length,
          totalMs: round(workerCheckpoints.reduce((n, w) => n + w.ms, 0)),
          maxMs: round(Math.max(0, ...workerCheckpoints.map((w) => w.ms))),
          atLeast10Ms: workerCheckpoints.filter((w) => w.ms >= 10).length
        },
        slowSql: slowSql.map((s) => ({ ...s, at: round(s.at), ms: round(s.ms) })),
        gcs: gcs.map((g) => ({ ...g, at: round(g.at), ms: round(g.ms) })),
        blocks: attributed
      },
      null,
      1
    )
  )
})
