/**
 * cron/jobs.py parse_schedule with minute counts past a JS number: parse_duration takes int() of the
 * digits (4300 at most) and multiplies by 60 or 1440 as Python ints, the interval's display is
 * str() of that int (4300 digits at most), and timedelta(minutes=…) and the datetime sum overflow
 * past a C int of days, 999999999 days or year 9999. Every expectation is what the 0.19.0 venv's
 * python answered for parse_schedule then compute_next_run (the one-shot sums against 2027-01-15T08:00Z).
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { computeNextRun } from "../../src/features/jobs/NextRun.js"
import { parseSchedule } from "../../src/features/jobs/Schedule.js"
import { PyInt } from "../../src/python/index.js"

const NOW = 1800000000 // 2027-01-15T08:00:00Z
const REPR_LIMIT =
  "Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit"
const PARSE_LIMIT =
  "Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit"
const C_INT = "Python int too large to convert to C int"

/** create_job's two steps: parse_schedule, then compute_next_run of what it parsed. */
const create = (schedule: string) => Either.flatMap(parseSchedule(schedule, NOW), (s) => computeNextRun(s, NOW))
const nines = (n: number) => "9".repeat(n)

describe("interval schedules past a JS number", () => {
  it("refuses to show an interval whose minutes pass 4300 digits", () => {
    expect(parseSchedule(`every ${nines(4300)}h`, NOW)).toEqual(Either.left(REPR_LIMIT))
    expect(parseSchedule(`every ${nines(4300)}d`, NOW)).toEqual(Either.left(REPR_LIMIT))
    expect(parseSchedule(`every 1${"0".repeat(4299)}h`, NOW)).toEqual(Either.left(REPR_LIMIT))
  })

  it("shows one of 4300 digits exactly, the multiply just under the limit, and fails on timedelta", () => {
    const m = parseSchedule(`every ${nines(4300)}m`, NOW)
    expect(Either.getOrThrow(m)).toEqual({ kind: "interval", minutes: new PyInt(10n ** 4300n - 1n), display: `every ${nines(4300)}m` })
    expect(create(`every ${nines(4300)}m`)).toEqual(Either.left(C_INT))
    // 1 followed by 4298 zeros, times 60: 4300 digits; times 120 would be 4301
    expect(Either.map(parseSchedule(`every 1${"0".repeat(4298)}h`, NOW), (s) => s.display)).toEqual(
      Either.right(`every 6${"0".repeat(4299)}m`)
    )
    expect(parseSchedule(`every 2${"0".repeat(4298)}h`, NOW)).toEqual(Either.left(REPR_LIMIT))
  })

  it("refuses int() of more than 4300 digits, leading zeros counted", () => {
    expect(parseSchedule(`every ${nines(4301)}m`, NOW)).toEqual(Either.left(PARSE_LIMIT))
    expect(parseSchedule(`every ${"0".repeat(4300)}1m`, NOW)).toEqual(Either.left(PARSE_LIMIT))
    expect(parseSchedule(`every ${"٩".repeat(4301)}m`, NOW)).toEqual(Either.left(PARSE_LIMIT))
  })

  it("keeps every digit past 2^53 in the display", () => {
    expect(Either.map(parseSchedule("every 9007199254740993m", NOW), (s) => s.display)).toEqual(
      Either.right("every 9007199254740993m")
    )
    expect(Either.map(parseSchedule("every 1000000000000000000000h", NOW), (s) => s.display)).toEqual(
      Either.right("every 60000000000000000000000m")
    )
    expect(create("every 9007199254740993m")).toEqual(Either.left(C_INT))
    expect(create("every 9223372036854775808m")).toEqual(Either.left(C_INT))
  })

  it("overflows timedelta at a C int of days, then at 999999999 days, then the year", () => {
    expect(create("every 3092376453120m")).toEqual(Either.left(C_INT))
    expect(create("every 3092376453119m")).toEqual(Either.left("days=2147483647; must have magnitude <= 999999999"))
    expect(create("every 1440000000000m")).toEqual(Either.left("days=1000000000; must have magnitude <= 999999999"))
    expect(create("every 1439999999999m")).toEqual(Either.left("date value out of range"))
    expect(create("every 4193371680m")).toEqual(Either.left("date value out of range"))
    expect(create("every 4193371679m")).toEqual(Either.right("9999-12-31T23:59:00+00:00"))
  })

  it("reads any Unicode decimal digits and Python's whitespace, as re's \\d and \\s on a str do", () => {
    expect(parseSchedule("every ٣m", NOW)).toEqual(Either.right({ kind: "interval", minutes: 3, display: "every 3m" }))
    expect(parseSchedule("every 𝟗h", NOW)).toEqual(Either.right({ kind: "interval", minutes: 540, display: "every 540m" }))
    expect(parseSchedule("every 1\x1cm", NOW)).toEqual(Either.right({ kind: "interval", minutes: 1, display: "every 1m" }))
    expect(parseSchedule("every 12\u3000m", NOW)).toEqual(Either.right({ kind: "interval", minutes: 12, display: "every 12m" }))
    expect(Either.isLeft(parseSchedule("every 1\ufeffm", NOW))).toBe(true)
  })
})

describe("one-shot durations past a JS number", () => {
  it("answers timedelta's OverflowError, not the invalid-schedule text", () => {
    expect(parseSchedule(`${nines(4300)}h`, NOW)).toEqual(Either.left(C_INT))
    expect(parseSchedule(`1${"0".repeat(4299)}m`, NOW)).toEqual(Either.left(C_INT))
    expect(parseSchedule("3092376453120m", NOW)).toEqual(Either.left(C_INT))
    expect(parseSchedule("1440000000000m", NOW)).toEqual(Either.left("days=1000000000; must have magnitude <= 999999999"))
    expect(parseSchedule("4193371680m", NOW)).toEqual(Either.left("date value out of range"))
  })

  it("schedules the last minute datetime can hold", () => {
    expect(parseSchedule("4193371679m", NOW)).toEqual(
      Either.right({ kind: "once", run_at: "9999-12-31T23:59:00+00:00", display: "once in 4193371679m" })
    )
  })

  it("falls through to the invalid-schedule text when int() refuses the digits", () => {
    const answer = parseSchedule(`${nines(4301)}h`, NOW)
    expect(Either.isLeft(answer) && answer.left.startsWith(`Invalid schedule '${nines(4301)}h'. Use:\n`)).toBe(true)
  })
})
