/**
 * Where the emulator's event loop blocks, for the soak (`npm run reliability -- --soak
 * --soak-trace FILE`): preloaded into the bundled CLI (`node --import bench/tools/stall-trace.ts`,
 * Node's own type stripping, so only erasable syntax here), it records
 * - every event-loop block of at least STALL_MS (a 2 ms timer that fired late; the block is the lateness),
 * - every SQLite statement that took at least SLOW_SQL_MS, with its SQL and whether a WAL
 *   checkpoint ran inside it (the `-shm` file's backfill count moved),
 * - every GC pause of at least SLOW_GC_MS,
 * and on exit writes them, with each block attributed to the statements and GC pauses inside it,
 * as JSON to $HERMETIC_STALL_TRACE. better-sqlite3 is synchronous: a statement blocks the loop
 * for as long as it runs, a checkpoint's copy and fsyncs included.
 */
import { closeSync, existsSync, openSync, readSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { PerformanceObserver } from "node:perf_hooks"

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
const blocks: Array<Interval> = []
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
    const file = !this.reader && !this.database.memory
    const before = file ? backfill(this.database) : undefined
    const t = performance.now()
    try {
      return original.apply(this, args)
    } finally {
      const ms = performance.now() - t
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

new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.duration >= SLOW_GC_MS) gcs.push({ at: e.startTime, ms: e.duration, kind: ((e as { readonly detail?: { readonly kind?: number } }).detail)?.kind ?? 0 })
  }
}).observe({ entryTypes: ["gc"] })

let last = performance.now()
setInterval(() => {
  const now = performance.now()
  const late = now - last - TICK_MS
  if (late >= STALL_MS) blocks.push({ at: last + TICK_MS, ms: late })
  last = now
}, TICK_MS).unref()

const inside = (b: Interval, x: Interval) => x.at >= b.at - 1 && x.at < b.at + b.ms
const round = (n: number) => Number(n.toFixed(2))

process.on("exit", () => {
  if (out === undefined) return
  const attributed = blocks.map((b) => {
    const sql = slowSql.filter((s) => inside(b, s))
    const gc = gcs.filter((g) => inside(b, g))
    const sqlMs = sql.reduce((n, s) => n + s.ms, 0)
    const gcMs = gc.reduce((n, g) => n + g.ms, 0)
    return {
      at: round(b.at),
      ms: round(b.ms),
      sqlMs: round(sqlMs),
      checkpointMs: round(sql.filter((s) => s.checkpoint).reduce((n, s) => n + s.ms, 0)),
      gcMs: round(gcMs),
      otherMs: round(Math.max(0, b.ms - sqlMs - gcMs)),
      sql: sql.map((s) => ({ ms: round(s.ms), checkpoint: s.checkpoint, sql: s.sql }))
    }
  })
  writeFileSync(
    out,
    JSON.stringify(
      {
        stallMs: STALL_MS,
        statements,
        checkpoints,
        checkpointMs: round(checkpointMs),
        slowSql: slowSql.map((s) => ({ ...s, at: round(s.at), ms: round(s.ms) })),
        gcs: gcs.map((g) => ({ ...g, at: round(g.at), ms: round(g.ms) })),
        blocks: attributed
      },
      null,
      1
    )
  )
})
