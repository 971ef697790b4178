/**
 * The linear session list answers exactly what the old recursive query answered: the same rows,
 * in the same order, with the same projection to compression tips, for random fork forests
 * (forks, compression chains, branches, delegates, tool children, ties in start times) and every
 * combination of the list's options and pages.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { StorageLive } from "../../src/services/Storage.js"
import { listSessions, type ListQuery } from "../../src/features/sessions/SessionList.js"
import { STORAGE_SCHEMA } from "../../src/StorageSchema.js"
import { legacyListSessions } from "./legacySessionList.js"
import { prng, seedSessionForest } from "./sessionForest.js"

const SEEDS = [1, 2, 3, 5, 8, 13, 21, 34]

describe("GET /api/sessions against the old query", () => {
  it.each(SEEDS)("random forest %i: every page of every option combination is equal", async (seed) => {
    const program = Effect.gen(function*() {
      const rnd = prng(seed * 7919)
      const sessions = 20 + Math.floor(rnd() * 100)
      yield* seedSessionForest({ sessions, seed, maxMessages: 4 })
      let compared = 0
      let nonEmpty = 0
      for (const includeChildren of [false, true]) {
        for (const excludeArchived of [false, true]) {
          for (const source of [undefined, "api_server", "cli"]) {
            for (const [limit, offset] of [[1000, 0], [20, 0], [7, 3], [1, Math.floor(rnd() * sessions)], [50, Math.floor(rnd() * sessions)]] as const) {
              const q: ListQuery = { source, limit, offset, includeChildren, excludeArchived }
              const now = yield* listSessions("default", q)
              const before = yield* legacyListSessions("default", q)
              expect(now).toEqual(before)
              compared++
              if (now.length > 0) nonEmpty++
            }
          }
        }
      }
      return { compared, nonEmpty }
    })
    const { compared, nonEmpty } = await Effect.runPromise(Effect.scoped(Effect.provide(program, StorageLive(":memory:", STORAGE_SCHEMA))))
    expect(compared).toBe(60)
    // the comparison means something only if most pages hold rows
    expect(nonEmpty).toBeGreaterThan(30)
  })

  it("projects compression roots to their tips in the forests compared", async () => {
    const program = Effect.gen(function*() {
      yield* seedSessionForest({ sessions: 150, seed: 99, maxMessages: 2 })
      return yield* listSessions("default", { source: undefined, limit: 1000, offset: 0, includeChildren: false, excludeArchived: false })
    })
    const rows = await Effect.runPromise(Effect.scoped(Effect.provide(program, StorageLive(":memory:", STORAGE_SCHEMA))))
    // the forests exercise the projection, not only plain roots
    expect(rows.filter((r) => r.lineage_root_id !== r.id && r.lineage_root_id !== null && r.lineage_root_id !== undefined).length).toBeGreaterThan(0)
  })
})
