/**
 * compute_next_run on schedule objects a PATCH stores as sent, against what the real 0.19.0
 * gateway answered (fixtures/0.19.0/jobs-interval-minutes-and-cron-expressions-of-other-types-set-through-patch.json)
 * and what the 0.19.0 venv's python raised for timedelta(minutes=m) added to 2027-01-15T08:00:00Z.
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { computeNextRun } from "../../src/features/jobs/NextRun.js"
import { PyFloat, PyInt } from "../../src/python/index.js"

const NOW = 1800000000 // 2027-01-15T08:00:00Z
const interval = (minutes: unknown) => computeNextRun({ kind: "interval", minutes }, NOW)
const cron = (expr: unknown) => computeNextRun({ kind: "cron", expr }, NOW)

describe("computeNextRun", () => {
  it("takes a boolean interval as an int, as timedelta does", () => {
    expect(interval(true)).toEqual(Either.right("2027-01-15T08:01:00+00:00"))
    expect(interval(false)).toEqual(Either.right("2027-01-15T08:00:00+00:00"))
    expect(interval(new PyFloat(5))).toEqual(Either.right("2027-01-15T08:05:00+00:00"))
    expect(interval(-0.5)).toEqual(Either.right("2027-01-15T07:59:30+00:00"))
  })

  it("names the type timedelta refuses", () => {
    expect(interval("5")).toEqual(Either.left("unsupported type for timedelta minutes component: str"))
    expect(interval([5])).toEqual(Either.left("unsupported type for timedelta minutes component: list"))
    expect(interval({ m: 5 })).toEqual(Either.left("unsupported type for timedelta minutes component: dict"))
  })

  it("overflows where Python's timedelta and datetime do", () => {
    expect(interval(1e12)).toEqual(Either.left("date value out of range"))
    expect(interval(-1e12)).toEqual(Either.left("date value out of range"))
    expect(interval(1439999998560)).toEqual(Either.left("date value out of range"))
    expect(interval(1440000000000)).toEqual(Either.left("days=1000000000; must have magnitude <= 999999999"))
    expect(interval(3092376451680)).toEqual(Either.left("days=2147483647; must have magnitude <= 999999999"))
    expect(interval(3092376453120)).toEqual(Either.left("Python int too large to convert to C int"))
    expect(interval(1e13)).toEqual(Either.left("Python int too large to convert to C int"))
    expect(interval(-1e13)).toEqual(Either.left("Python int too large to convert to C int"))
    expect(interval(new PyInt(10n ** 30n))).toEqual(Either.left("Python int too large to convert to C int"))
    expect(interval(new PyFloat(Infinity))).toEqual(Either.left("cannot convert float infinity to integer"))
    expect(interval(new PyFloat(NaN))).toEqual(Either.left("cannot convert float NaN to integer"))
  })

  it("hands a truthy non-string cron expression to croniter, which fails lower-casing it", () => {
    expect(cron(5)).toEqual(Either.left("'int' object has no attribute 'lower'"))
    expect(cron(["* * * * *"])).toEqual(Either.left("'list' object has no attribute 'lower'"))
    expect(cron(true)).toEqual(Either.left("'bool' object has no attribute 'lower'"))
    expect(cron("")).toEqual(Either.right(null))
    expect(cron(0)).toEqual(Either.right(null))
    expect(cron([])).toEqual(Either.right(null))
  })
})
