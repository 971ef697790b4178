/**
 * Jobs are rows in list order: a data dir written when the list was one JSON document is read
 * back in the same order, and creates, updates and deletes keep the order.
 */
import Database from "better-sqlite3"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { appendJob, deleteJob, loadJob, loadJobs, saveJob } from "../../src/features/jobs/JobStore.js"
import { StorageLive } from "../../src/services/Storage.js"
import { STORAGE_SCHEMA } from "../../src/StorageSchema.js"

const dirs: Array<string> = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

describe("job rows", () => {
  it("migrates a list kept as one JSON document, in order, ints and bools as they were", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hermetic-jobs-"))
    dirs.push(dir)
    const file = join(dir, "db.sqlite")
    const db = new Database(file)
    db.exec(`CREATE TABLE cron_job_lists (namespace TEXT PRIMARY KEY, jobs_json TEXT NOT NULL)`)
    db.prepare(`INSERT INTO cron_job_lists VALUES (?, ?)`).run("a", `[{"id": "bbbbbbbbbbbb", "n": 1, "on": true}, {"id": "aaaaaaaaaaaa", "f": 1.5}]`)
    db.close()
    const jobs = await Effect.runPromise(Effect.scoped(Effect.provide(loadJobs("a"), StorageLive(file, STORAGE_SCHEMA))))
    expect(jobs.map((j) => j["id"])).toEqual(["bbbbbbbbbbbb", "aaaaaaaaaaaa"])
    expect(jobs[0]?.["on"]).toBe(true)
    expect(jobs[1]?.["f"]).toBe(1.5)
    // a second open finds the rows, not a second copy
    const again = await Effect.runPromise(Effect.scoped(Effect.provide(loadJobs("a"), StorageLive(file, STORAGE_SCHEMA))))
    expect(again.length).toBe(2)
  })

  it("appends at the end, rewrites in place, deletes by id", async () => {
    const program = Effect.gen(function*() {
      for (const id of ["000000000001", "000000000002", "000000000003"]) yield* appendJob("n", { id, name: `job ${id}` })
      yield* saveJob("n", { id: "000000000002", name: "renamed" })
      yield* deleteJob("n", "000000000001")
      yield* appendJob("n", { id: "000000000004", name: "last" })
      return { all: yield* loadJobs("n"), one: yield* loadJob("n", "000000000002"), none: yield* loadJob("n", "000000000001") }
    })
    const out = await Effect.runPromise(Effect.scoped(Effect.provide(program, StorageLive(":memory:", STORAGE_SCHEMA))))
    expect(out.all.map((j) => [j["id"], j["name"]])).toEqual([
      ["000000000002", "renamed"],
      ["000000000003", "job 000000000003"],
      ["000000000004", "last"]
    ])
    expect(out.one?.["name"]).toBe("renamed")
    expect(out.none).toBeUndefined()
  })
})
