/**
 * `datetime.fromisoformat` (Python 3.11) at the edges the cron store's schedule parser reaches
 * (observed live on 0.19.0: scenarios/jobs-iso-schedule-edges.json).
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { fromIsoformat, isoformat } from "../../src/features/jobs/IsoTime.js"

const read = (text: string) => Either.map(fromIsoformat(text), isoformat)

describe("fromIsoformat", () => {
  it.each([
    ["2030-01-01X09:00", "2030-01-01T09:00:00"],
    ["20300101x0900", "2030-01-01T09:00:00"],
    ["2030-01-01509:00", "2030-01-01T09:00:00"],
    ["2030-01-01-09:00", "2030-01-01T09:00:00"],
    ["2030-01-01\u{1F600}09:00", "2030-01-01T09:00:00"],
    ["2030-01-01 09:00", "2030-01-01T09:00:00"]
  ])("any one character separates the date from the time: %s", (text, iso) => {
    expect(read(text)).toEqual(Either.right(iso))
  })

  it.each(["2030-01-01X", "2030-01-01T", "2030-01-01Tab", "2030-01-0109:00", "2030-01-01T09:00+5"])("%s is refused", (text) => {
    expect(read(text)).toEqual(Either.left(`Invalid isoformat string: '${text}'`))
  })

  it("offsets and fractions as isoformat writes them back", () => {
    expect(read("2030-01-01T09:00-05:00")).toEqual(Either.right("2030-01-01T09:00:00-05:00"))
    expect(read("2030-01-01T09:00:00.5+05:30:15")).toEqual(Either.right("2030-01-01T09:00:00.500000+05:30:15"))
  })
})
