/**
 * The ticker reads only the jobs its due index returns. That read is a prefilter: it must return
 * every job the ticker would fire or fast-forward (a naive time is read as UTC by SQLite but in the
 * configured zone by the ticker, so the bound carries a margin), may return more, must refuse none
 * of the rows a snapshot can hold (a time of "now" or JSON SQLite cannot read), and must be an
 * index range, not a scan of every job.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { StorageLive } from "../../src/services/Storage.js"
import { loadMaybeDueJobs, MAYBE_DUE_SQL } from "../../src/features/jobs/JobStore.js"
import { STORAGE_SCHEMA } from "../../src/StorageSchema.js"

const NOW = 1_796_126_400 // 2026-12-01T12:00:00Z

const JOBS: ReadonlyArray<readonly [string, string, boolean]> = [
  // [id, job_json, returned]
  ["past-utc", `{"id": "past-utc", "next_run_at": "2026-12-01T11:00:00+00:00"}`, true],
  ["past-offset", `{"id": "past-offset", "next_run_at": "2026-12-01T13:30:00.123456+02:00"}`, true],
  ["future-far", `{"id": "future-far", "next_run_at": "2026-12-03T12:00:00+00:00"}`, false],
  // naive: in a zone west of UTC it is already due, so it is returned though UTC says 10 h ahead
  ["naive-near", `{"id": "naive-near", "next_run_at": "2026-12-01T22:00:00"}`, true],
  ["paused", `{"id": "paused", "state": "paused", "next_run_at": "2026-12-01T11:00:00+00:00"}`, false],
  ["disabled", `{"id": "disabled", "enabled": false, "next_run_at": "2026-12-01T11:00:00+00:00"}`, false],
  ["no-next", `{"id": "no-next", "next_run_at": null}`, false],
  ["now-text", `{"id": "now-text", "next_run_at": "now"}`, true],
  ["not-a-date", `{"id": "not-a-date", "next_run_at": "2026-13-99T99:99:99"}`, true],
  // Python's JSON, which SQLite's json functions refuse: returned, the ticker decides
  ["nan", `{"id": "nan", "next_run_at": "2026-12-03T12:00:00+00:00", "x": NaN}`, true]
]

const run = <A, E>(program: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.runPromise(Effect.scoped(Effect.provide(program, StorageLive(":memory:", STORAGE_SCHEMA))))

describe("the cron due index", () => {
  it("returns every job that may be due, in list order, and none that cannot be", async () => {
    const ids = await run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      let seq = 0
      for (const [id, json] of JOBS) yield* sql`INSERT INTO cron_jobs (namespace, seq, id, job_json) VALUES ('ns', ${++seq}, ${id}, ${json})`
      yield* sql`INSERT INTO cron_jobs (namespace, seq, id, job_json) VALUES ('other', 1, 'elsewhere', '{"id": "elsewhere", "next_run_at": "2026-12-01T11:00:00+00:00"}')`
      const due = yield* loadMaybeDueJobs("ns", NOW)
      return due.map((e) => e.job["id"])
    }))
    expect(ids).toEqual(JOBS.filter(([, , returned]) => returned).map(([id]) => id))
  })

  it("reads an index range, not every job", async () => {
    const plan = await run(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql.unsafe<{ readonly detail: string }>(`EXPLAIN QUERY PLAN ${MAYBE_DUE_SQL}`, ["ns", 0])
    ))
    expect(plan.map((p) => p.detail).join("; ")).toMatch(/SEARCH cron_jobs USING INDEX cron_jobs_due \(namespace=\? AND <expr><\?\)/)
  })
})
