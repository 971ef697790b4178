/**
 * The cron parser against croniter 6.0.0 (the 0.19.0 wheel's pin): each row is what
 * `croniter(expr, 2026-11-30T13:24:51.687222Z)` raised, or its first two get_next() times,
 * recorded with the 0.19.0 venv's python.
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { nextFiring, parseCron } from "../../src/features/jobs/CronExpression.js"

const BASE = Date.UTC(2026, 10, 30, 13, 24, 51) * 1000 + 687222

const CRONITER: ReadonlyArray<readonly [string, string, string?]> = [
  ["61 * * * *", "[61 * * * *] is not acceptable, out of range"],
  ["* 24 * * *", "[* 24 * * *] is not acceptable, out of range"],
  ["* * 0 * *", "[* * 0 * *] is not acceptable, out of range"],
  ["* * * 13 *", "[* * * 13 *] is not acceptable, out of range"],
  ["* * * * 8", "[* * * * 8] is not acceptable, out of range"],
  ["*/0 * * * *", "invalid range: range() arg 3 must not be zero"],
  ["1,2,,3 * * * *", "[1,2,,3 * * * *] is not acceptable"],
  ["- * * * *", "[- * * * *] is not acceptable,negative numbers not allowed"],
  ["* * * * * 61", "[* * * * * 61] is not acceptable, out of range"],
  ["* * * * * * 1969", "[* * * * * * 1969] is not acceptable, out of range"],
  ["0 9 * * * x", "[0 9 * * * x] is not acceptable"],
  ["/5 * * * *", "[/5 * * * *] is not acceptable"],
  ["1--2 * * * *", "[1--2 * * * *] is not acceptable"],
  ["* * * * * 5 6 7", "Exactly 5, 6 or 7 columns has to be specified for iterator expression."],
  ["* * * * 7", "2026-12-06T00:00:00Z", "2026-12-06T00:01:00Z"],
  ["5-3 * * * *", "2026-11-30T13:25:00Z", "2026-11-30T13:26:00Z"],
  ["0-59/15 * * * *", "2026-11-30T13:30:00Z", "2026-11-30T13:45:00Z"],
  ["* * * * * 30", "2026-11-30T13:25:30Z", "2026-11-30T13:26:30Z"],
  ["* * * * * * 2030", "2030-01-01T00:00:00Z", "2030-01-01T00:00:01Z"],
  ["0 9 * * 1-5", "2026-12-01T09:00:00Z", "2026-12-02T09:00:00Z"],
  ["0 9 1 * 1", "2026-12-01T09:00:00Z", "2026-12-07T09:00:00Z"],
  ["0 0 29 2 *", "2028-02-29T00:00:00Z", "2032-02-29T00:00:00Z"],
  ["0 9 * * 7-1", "2026-12-06T09:00:00Z", "2026-12-07T09:00:00Z"],
  ["*/7 * * * *", "2026-11-30T13:28:00Z", "2026-11-30T13:35:00Z"],
  ["1/2 * * * *", "2026-11-30T13:25:00Z", "2026-11-30T13:27:00Z"],
  ["0 0 * * 5/2", "2026-12-04T00:00:00Z", "2026-12-11T00:00:00Z"]
]

const iso = (s: number | undefined) => (s === undefined ? "none" : new Date(s * 1000).toISOString().replace(".000", ""))

describe("cron expressions as croniter reads them", () => {
  it.each(CRONITER.map(([expr, first, second]) => ({ expr, first, second })))("$expr", ({ expr, first, second }) => {
    const parsed = parseCron(expr)
    if (second === undefined) {
      expect(parsed).toEqual(Either.left(first))
      return
    }
    if (Either.isLeft(parsed)) throw new Error(parsed.left)
    const n1 = nextFiring(parsed.right, BASE)
    expect([iso(n1), iso(n1 === undefined ? undefined : nextFiring(parsed.right, n1 * 1e6))]).toEqual([first, second])
  })

  it("an expression that never fires parses, but has no next time (croniter: failed to find next date)", () => {
    const parsed = parseCron("0 0 31 2 *")
    if (Either.isLeft(parsed)) throw new Error(parsed.left)
    expect(nextFiring(parsed.right, BASE)).toBeUndefined()
  })
})
