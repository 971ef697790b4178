/**
 * `datetime.fromisoformat` / `isoformat` (Python 3.11) at the edges the cron store's schedule parser
 * reaches, against what the 0.19.0 venv's python answered and the real gateway stored
 * (scenarios/jobs-iso-schedule-edges.json, jobs-oneshot-zone-offsets.json,
 * jobs-oneshot-zone-offset-forms.json).
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { fromIsoformat, isoformat } from "../../src/features/jobs/IsoTime.js"

const read = (text: string) => Either.map(fromIsoformat(text), isoformat)
const epochSeconds = (text: string) => Either.map(fromIsoformat(text), (t) => t.micros / 1e6)

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

describe("fromIsoformat offsets", () => {
  it("keeps a negative offset and an offset's seconds", () => {
    expect(read("2030-01-01T09:00:00-05:30")).toEqual(Either.right("2030-01-01T09:00:00-05:30"))
    expect(epochSeconds("2030-01-01T09:00:00-05:30")).toEqual(Either.right(1893508200))
    expect(read("2030-01-01T09:00:00+053015")).toEqual(Either.right("2030-01-01T09:00:00+05:30:15"))
    expect(epochSeconds("2030-01-01T09:00:00+05:30:15")).toEqual(Either.right(1893468585))
    expect(read("2030-01-01T09:00:00-00:00:45")).toEqual(Either.right("2030-01-01T09:00:00-00:00:45"))
  })

  it("reads an offset of hours alone", () => {
    expect(read("2030-01-01T09:00:00+05")).toEqual(Either.right("2030-01-01T09:00:00+05:00"))
  })

  it("reads a fraction after any part of the offset as a fraction of a second, six digits kept", () => {
    expect(read("2030-01-01T09:00:00-05:30:15.25")).toEqual(Either.right("2030-01-01T09:00:00-05:30:15.250000"))
    expect(epochSeconds("2030-01-01T09:00:00-05:30:15.25")).toEqual(Either.right(1893508215.25))
    expect(read("2030-01-01T09:00:00+05:30:15,5")).toEqual(Either.right("2030-01-01T09:00:00+05:30:15.500000"))
    expect(read("2030-01-01T09:00:00+05:30:15.1234567")).toEqual(Either.right("2030-01-01T09:00:00+05:30:15.123456"))
    expect(read("2030-01-01T09:00:00+05.5")).toEqual(Either.right("2030-01-01T09:00:00+05:00:00.500000"))
    expect(read("2030-01-01T09:00:00+0530.5")).toEqual(Either.right("2030-01-01T09:00:00+05:30:00.500000"))
    expect(read("2030-01-01T09:00:00-00:00:01.5")).toEqual(Either.right("2030-01-01T09:00:00-00:00:01.500000"))
  })

  it("reads an offset whose hours, minutes and seconds are all zero as UTC, whatever its fraction", () => {
    expect(read("2030-01-01T09:00:00-00:00:00.5")).toEqual(Either.right("2030-01-01T09:00:00+00:00"))
    expect(epochSeconds("2030-01-01T09:00:00+00:00:00.5")).toEqual(Either.right(1893488400))
  })

  it("refuses separators mixed within the offset and a dot without digits", () => {
    for (const text of ["2030-01-01T09:00:00+0530:15", "2030-01-01T09:00:00+05:3015", "2030-01-01T09:00:00+05:30:15."]) {
      expect(fromIsoformat(text)).toEqual(Either.left(`Invalid isoformat string: '${text}'`))
    }
  })
})

describe("fromIsoformat offsets of a day or more", () => {
  const refused = (repr: string) => Either.left(`offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24), not ${repr}.`)

  it("refuses them with the timedelta's repr, before the date's fields are checked", () => {
    expect(fromIsoformat("2030-01-01T09:00+24:00")).toEqual(refused("datetime.timedelta(days=1)"))
    expect(fromIsoformat("2030-01-01T09:00-24:00")).toEqual(refused("datetime.timedelta(days=-1)"))
    expect(fromIsoformat("2030-01-01T09:00+23:60")).toEqual(refused("datetime.timedelta(days=1)"))
    expect(fromIsoformat("2030-01-01T09:00+24:00.000001")).toEqual(refused("datetime.timedelta(days=1, microseconds=1)"))
    expect(fromIsoformat("2030-01-01T09:00+48:30:15.25")).toEqual(refused("datetime.timedelta(days=2, seconds=1815, microseconds=250000)"))
    expect(fromIsoformat("2030-01-01T09:00-48:30:15.25")).toEqual(refused("datetime.timedelta(days=-3, seconds=84584, microseconds=750000)"))
    expect(fromIsoformat("2030-13-01T09:00+24:00")).toEqual(refused("datetime.timedelta(days=1)"))
  })

  it("keeps one just under a day, and minutes or seconds past 59 carried into the offset", () => {
    expect(read("2030-01-01T09:00-23:59:59,999999")).toEqual(Either.right("2030-01-01T09:00:00-23:59:59.999999"))
    expect(read("2030-01-01T09:00+00:60")).toEqual(Either.right("2030-01-01T09:00:00+01:00"))
  })
})
