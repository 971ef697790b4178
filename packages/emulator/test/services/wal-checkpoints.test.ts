/**
 * WAL checkpoints run in the checkpointer's worker thread, never inside a statement of the main
 * connection (which runs on the event loop). SQLite's default would checkpoint inside the commit
 * that takes the log past 1,000 pages; these writes take it well past that and stay under the
 * main connection's backstop. Whether a statement checkpointed is read from the `-shm` file:
 * WalCkptInfo.nBackfill (byte 96) grows when frames are copied into the database file, and
 * mxFrame (byte 16) is the frames the log holds.
 */
import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { closeSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Storage, storageContext } from "../../src/services/Storage.js"
import { BACKSTOP_PAGES } from "../../src/services/WalCheckpointer.js"
import { STORAGE_SCHEMA } from "../../src/StorageSchema.js"

const shmWord = (file: string, offset: number): number => {
  const fd = openSync(`${file}-shm`, "r")
  try {
    const b = Buffer.alloc(4)
    readSync(fd, b, 0, 4, offset)
    return b.readUInt32LE(0)
  } finally {
    closeSync(fd)
  }
}
const backfilled = (file: string) => shmWord(file, 96)
const logFrames = (file: string) => shmWord(file, 16)

it.live("a data dir's WAL is checkpointed by the worker, not by the statements on the event loop, and the log restarts", () =>
  Effect.gen(function*() {
    const dir = mkdtempSync(join(tmpdir(), "hermetic-wal-"))
    yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
    const file = join(dir, "hermetic-emulator.db")
    const context = yield* storageContext(file, STORAGE_SCHEMA)
    const storage = Effect.runSync(Effect.provide(Storage, context))
    const checkpointer = storage.checkpointer
    expect(checkpointer).toBeDefined()
    if (checkpointer === undefined) return

    storage.statement("CREATE TABLE filler (b BLOB)").run()
    const insert = storage.statement("INSERT INTO filler (b) VALUES (?)")
    const row = Buffer.alloc(4000, 7)
    let mostFrames = 0
    const checkpointedInside: Array<number> = []
    // 160 commits of 10 page-sized rows: about 1,800 frames, past SQLite's default threshold, under the backstop
    for (let batch = 0; batch < 160; batch++) {
      const before = backfilled(file)
      yield* storage.transaction(() => {
        for (let i = 0; i < 10; i++) insert.run(row)
      })
      if (backfilled(file) > before) checkpointedInside.push(batch)
      mostFrames = Math.max(mostFrames, logFrames(file))
      // the loop turns between commits, as between requests: the worker's timer can fire
      yield* Effect.sleep("2 millis")
    }
    expect(mostFrames).toBeGreaterThan(1000)
    expect(mostFrames).toBeLessThan(BACKSTOP_PAGES)
    expect(checkpointedInside).toEqual([])

    // with no write beside it, one request copies the whole log into the database file
    const report = yield* Effect.promise(() => checkpointer.checkpoint())
    expect(report.log).toBeGreaterThan(0)
    expect(report.checkpointed).toBe(report.log)
    expect(checkpointer.stats().running).toBe(true)
    expect(backfilled(file)).toBe(report.log)

    // a log copied whole is started over by the next write: it stays bounded
    yield* storage.use(() => insert.run(row))
    expect(logFrames(file)).toBeLessThan(10)
    expect(storage.statement("SELECT COUNT(*) AS n FROM filler").get()).toEqual({ n: 1601 })
  }).pipe(Effect.scoped))
