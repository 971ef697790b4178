/**
 * WAL checkpoints off the event loop. better-sqlite3 is synchronous: with SQLite's default
 * auto-checkpoint, the commit that takes the log past 1,000 pages copies them into the database
 * file and fsyncs both files before it returns, and every request waiting on the loop waits with
 * it (a soak's trace found one such commit every 1–2 s, 5–50 ms each on a shared disk). Here a
 * worker thread with its own connection to the same file runs `PRAGMA wal_checkpoint(PASSIVE)`
 * once a second: a passive checkpoint takes no writer lock, so the main connection's
 * reads and writes go on beside it, and a log it fully copied is restarted by the next write.
 *
 * - The worker starts once the log first holds START_BYTES (a short-lived process, a test's,
 *   never pays for the thread).
 * - The main connection keeps an auto-checkpoint, at BACKSTOP_PAGES instead of 1,000: it runs
 *   only if the worker cannot start or falls that far behind, so the log stays bounded.
 * - Durability is unchanged: the worker's checkpoint syncs as the main connection's did
 *   (synchronous=NORMAL), and a killed process leaves the same committed log behind.
 */
import { existsSync, statSync } from "node:fs"
import type { Worker } from "node:worker_threads"

/** Pages the log may hold before the main connection checkpoints itself (the worker's backstop). */
export const BACKSTOP_PAGES = 4000
/** Log size that starts the worker. */
const START_BYTES = 1 << 20
/**
 * How often the worker is asked for a checkpoint: about as often as SQLite's 1,000-page default
 * ran under the soak's writes; asked every 200 ms it ran 5 times as many passes, each with its two
 * fsyncs, for no gain on the event loop.
 */
const INTERVAL_MS = 1000
/** Passes one request may take to copy what writes added while the previous pass ran (a pass with nothing to copy does no I/O). */
const MAX_PASSES = 8

/** What one request to the worker did: its last pass's figures, in frames. */
export interface CheckpointReport {
  /** Frames in the log when the last pass ran. */
  readonly log: number
  /** Frames the log holds that are in the database file now. */
  readonly checkpointed: number
  readonly passes: number
}

export interface WalCheckpointer {
  /** A checkpoint now (starting the worker if it has not started). */
  readonly checkpoint: () => Promise<CheckpointReport>
  /** Requests the worker answered, the passes they took, and whether the worker runs. */
  readonly stats: () => { readonly requests: number; readonly passes: number; readonly running: boolean }
  /** Stops the timer and the worker (before the main connection closes). */
  readonly close: () => Promise<void>
}

// plain CommonJS, evaluated in the worker: the same code whether the emulator runs as its sources,
// its built package or the CLI bundle; better-sqlite3 comes by the path the main thread resolved
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads")
const Database = require(workerData.module)
const db = new Database(workerData.filename, { fileMustExist: true })
db.pragma("synchronous = NORMAL")
const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)")
parentPort.on("message", (m) => {
  if (m === "close") {
    db.close()
    parentPort.close()
    return
  }
  // again until a pass finds the log copied whole and no frame added since the pass before: only
  // then does the next write restart the log (a pass copies the frames there when it began)
  let r
  let before = -1
  let passes = 0
  do {
    if (r !== undefined) before = r.log
    r = checkpoint.get()
    passes++
  } while (r.busy === 0 && (r.checkpointed < r.log || r.log !== before) && passes < workerData.maxPasses)
  parentPort.postMessage({ log: r.log, checkpointed: r.checkpointed, passes })
})
`

/** The checkpointer of the database at `filename` (a file the main connection opened in WAL mode). */
export const walCheckpointer = (filename: string): WalCheckpointer => {
  let worker: Worker | undefined
  let failed = false
  let requests = 0
  let passes = 0
  let inFlight: Promise<CheckpointReport> | undefined
  const waiting: Array<{ resolve: (r: CheckpointReport) => void; reject: (e: unknown) => void }> = []

  const start = (): Worker => {
    // loaded with the worker, not at start: worker_threads and node:module's loader cost a start milliseconds
    const { Worker } = process.getBuiltinModule("node:worker_threads")
    const { createRequire } = process.getBuiltinModule("node:module")
    const w = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { filename, module: createRequire(import.meta.url).resolve("better-sqlite3"), maxPasses: MAX_PASSES }
    })
    w.unref()
    w.on("message", (m: CheckpointReport) => {
      requests++
      passes += m.passes
      waiting.shift()?.resolve(m)
    })
    // a worker that cannot run leaves the checkpoints to the main connection's backstop
    w.on("error", (e) => {
      failed = true
      for (const p of waiting.splice(0)) p.reject(e)
    })
    return w
  }

  const checkpoint = (): Promise<CheckpointReport> => {
    if (inFlight !== undefined) return inFlight
    if (failed) return Promise.reject(new Error("the WAL checkpoint worker stopped"))
    worker ??= start()
    const w = worker
    inFlight = new Promise<CheckpointReport>((resolve, reject) => {
      waiting.push({ resolve, reject })
      w.postMessage("checkpoint")
    }).finally(() => (inFlight = undefined))
    return inFlight
  }

  const logBytes = () => {
    const wal = `${filename}-wal`
    return existsSync(wal) ? statSync(wal).size : 0
  }
  const tick = () => {
    if (failed || inFlight !== undefined) return
    if (worker === undefined && logBytes() < START_BYTES) return
    checkpoint().catch(() => undefined)
  }
  const timer = setInterval(tick, INTERVAL_MS)
  timer.unref()

  return {
    checkpoint,
    stats: () => ({ requests, passes, running: worker !== undefined && !failed }),
    close: async () => {
      clearInterval(timer)
      const w = worker
      if (w === undefined) return
      worker = undefined
      if (failed) return void (await w.terminate())
      await inFlight?.catch(() => undefined)
      const exited = new Promise<void>((done) => w.once("exit", () => done()))
      w.postMessage("close")
      await exited
    }
  }
}
