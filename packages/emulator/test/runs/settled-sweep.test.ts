import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { countSettled, sweepSettledBatches } from "../../src/features/runs/SettledRuns.js"
import { Storage, StorageLive } from "../../src/services/Storage.js"
import { STORAGE_SCHEMA } from "../../src/StorageSchema.js"

const NOW = 2_000_000_000

describe("the sweep of settled run statuses", () => {
  it("deletes the expired ones in slices, giving the event loop a turn between slices", async () => {
    const program = Effect.gen(function*() {
      const storage = yield* Storage
      yield* storage.transaction(() => {
        const insert = storage.statement(`INSERT INTO settled_runs (namespace, run_id, status, updated_at, body) VALUES ('default', ?, ?, ?, '{}')`)
        for (let i = 0; i < 5000; i++) insert.run(`run_old_${i}`, "completed", NOW - 7200)
        insert.run("run_fresh", "completed", NOW - 10)
        // not a swept status: kept however old
        insert.run("run_interrupted", "interrupted", NOW - 7200)
      })
      // callbacks of the event loop's check phase, counted while the sweep runs
      let turns = 0
      let sweeping = true
      const tick = () => {
        if (!sweeping) return
        turns++
        setImmediate(tick)
      }
      setImmediate(tick)
      yield* sweepSettledBatches("default", { seq: 1, wall: NOW })
      sweeping = false
      return { turns, left: yield* countSettled("default") }
    })
    const { turns, left } = await Effect.runPromise(Effect.scoped(Effect.provide(program, StorageLive(":memory:", STORAGE_SCHEMA))))
    expect(left).toBe(2)
    // 5,000 rows are at least 10 slices; each waits for a turn of the event loop
    expect(turns).toBeGreaterThanOrEqual(9)
  })
})
