import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { loadSettled, saveSettledNow, settledSlot } from "../../src/runs/SettledRuns.js"
import { Storage, StorageLive } from "../../src/services/Storage.js"
import { STORAGE_SCHEMA } from "../../src/StorageSchema.js"

const NOW = 2_000_000_000
const settled = (runId: string, output: string) => ({ object: "hermes.run", run_id: runId, status: "completed", updated_at: NOW, output })

const inStorage = <A>(f: (storage: Effect.Effect.Success<typeof Storage>) => Effect.Effect<A>) =>
  Effect.runPromise(Effect.scoped(Effect.provide(Effect.flatMap(Storage, f), StorageLive(":memory:", STORAGE_SCHEMA))))

const rowidOf = (storage: Effect.Effect.Success<typeof Storage>, namespace: string, runId: string) =>
  (storage.statement(`SELECT rowid AS r FROM settled_runs WHERE namespace = ? AND run_id = ?`).get(namespace, runId) as { r: number } | undefined)?.r

describe("settled statuses at their slots", () => {
  it("spreads namespaces and run ids over 53 bits, deterministically", () => {
    const slots = new Set<number>()
    for (let i = 0; i < 20_000; i++) slots.add(settledSlot(`ns${i % 7}`, `run_${i.toString(16).padStart(32, "0")}`))
    expect(slots.size).toBe(20_000)
    for (const slot of slots) expect(Number.isSafeInteger(slot) && slot >= 0 && slot < 2 ** 53).toBe(true)
    expect(settledSlot("a", "run_1")).toBe(settledSlot("a", "run_1"))
    // the same run id in two namespaces, and the boundary between the two texts, both count
    expect(settledSlot("a", "run_1")).not.toBe(settledSlot("b", "run_1"))
    expect(settledSlot("ab", "c")).not.toBe(settledSlot("a", "bc"))
  })

  it("stores a status at its slot and finds it there, replaced in place when it is saved again", async () => {
    const found = await inStorage((storage) =>
      Effect.gen(function*() {
        yield* storage.use(() => saveSettledNow(storage, "default", "run_a", settled("run_a", "first")))
        yield* storage.use(() => saveSettledNow(storage, "default", "run_a", settled("run_a", "second")))
        const count = storage.statement(`SELECT COUNT(*) AS n FROM settled_runs`).get() as { n: number }
        return { run: yield* loadSettled(storage, "default", "run_a", NOW), rowid: rowidOf(storage, "default", "run_a"), count: count.n }
      }))
    expect(found.rowid).toBe(settledSlot("default", "run_a"))
    expect(found.count).toBe(1)
    expect(JSON.parse(found.run?.body ?? "{}").output).toBe("second")
  })

  it("keeps both runs of a slot collision: the second at an ordinary rowid, found through the primary key", async () => {
    const found = await inStorage((storage) =>
      Effect.gen(function*() {
        // run_b's slot taken by another run, as a hash collision would take it
        storage.statement(`INSERT INTO settled_runs (rowid, namespace, run_id, status, updated_at, body) VALUES (?, 'other', 'run_x', 'completed', ?, '{"x": 1}')`)
          .run(settledSlot("default", "run_b"), NOW)
        yield* storage.use(() => saveSettledNow(storage, "default", "run_b", settled("run_b", "kept")))
        const collided = { b: yield* loadSettled(storage, "default", "run_b", NOW), x: yield* loadSettled(storage, "other", "run_x", NOW), rowid: rowidOf(storage, "default", "run_b") }
        // the slot frees up; the next save of run_b moves it there, leaving no second row
        storage.statement(`DELETE FROM settled_runs WHERE namespace = 'other'`).run()
        yield* storage.use(() => saveSettledNow(storage, "default", "run_b", settled("run_b", "moved")))
        const count = storage.statement(`SELECT COUNT(*) AS n FROM settled_runs`).get() as { n: number }
        return { collided, moved: { b: yield* loadSettled(storage, "default", "run_b", NOW), rowid: rowidOf(storage, "default", "run_b"), count: count.n } }
      }))
    expect(found.collided.rowid).not.toBe(settledSlot("default", "run_b"))
    expect(JSON.parse(found.collided.b?.body ?? "{}").output).toBe("kept")
    expect(found.collided.x?.body).toBe('{"x": 1}')
    expect(found.moved.rowid).toBe(settledSlot("default", "run_b"))
    expect(found.moved.count).toBe(1)
    expect(JSON.parse(found.moved.b?.body ?? "{}").output).toBe("moved")
  })

  it("hides a status the last sweep dropped, at its slot or not", async () => {
    const found = await inStorage((storage) =>
      Effect.gen(function*() {
        yield* storage.use(() => saveSettledNow(storage, "default", "run_c", settled("run_c", "old")))
        return { before: yield* loadSettled(storage, "default", "run_c", NOW), after: yield* loadSettled(storage, "default", "run_c", NOW + 3601) }
      }))
    expect(found.before).toBeDefined()
    expect(found.after).toBeUndefined()
  })
})
