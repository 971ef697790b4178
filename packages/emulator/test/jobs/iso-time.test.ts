/**
 * fromisoformat/isoformat on the UTC offsets of a one-shot schedule, against what the 0.19.0 venv's
 * python (3.11) answered and the real gateway stored (fixtures/0.19.0/jobs-one-shot-offsets-given-in-
 * hours-only-….json, jobs-one-shot-timestamps-with-negative-offsets-….json).
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { fromIsoformat, isoformat } from "../../src/features/jobs/IsoTime.js"

const roundTrip = (text: string) => Either.map(fromIsoformat(text), isoformat)
const epochSeconds = (text: string) => Either.map(fromIsoformat(text), (t) => t.micros / 1e6)

describe("fromIsoformat offsets", () => {
  it("keeps a negative offset and an offset's seconds", () => {
    expect(roundTrip("2030-01-01T09:00:00-05:30")).toEqual(Either.right("2030-01-01T09:00:00-05:30"))
    expect(epochSeconds("2030-01-01T09:00:00-05:30")).toEqual(Either.right(1893508200))
    expect(roundTrip("2030-01-01T09:00:00+053015")).toEqual(Either.right("2030-01-01T09:00:00+05:30:15"))
    expect(epochSeconds("2030-01-01T09:00:00+05:30:15")).toEqual(Either.right(1893468585))
    expect(roundTrip("2030-01-01T09:00:00-00:00:45")).toEqual(Either.right("2030-01-01T09:00:00-00:00:45"))
  })

  it("reads an offset of hours alone", () => {
    expect(roundTrip("2030-01-01T09:00:00+05")).toEqual(Either.right("2030-01-01T09:00:00+05:00"))
  })

  it("reads a fraction after any part of the offset as a fraction of a second, six digits kept", () => {
    expect(roundTrip("2030-01-01T09:00:00-05:30:15.25")).toEqual(Either.right("2030-01-01T09:00:00-05:30:15.250000"))
    expect(epochSeconds("2030-01-01T09:00:00-05:30:15.25")).toEqual(Either.right(1893508215.25))
    expect(roundTrip("2030-01-01T09:00:00+05:30:15,5")).toEqual(Either.right("2030-01-01T09:00:00+05:30:15.500000"))
    expect(roundTrip("2030-01-01T09:00:00+05:30:15.1234567")).toEqual(Either.right("2030-01-01T09:00:00+05:30:15.123456"))
    expect(roundTrip("2030-01-01T09:00:00+05.5")).toEqual(Either.right("2030-01-01T09:00:00+05:00:00.500000"))
    expect(roundTrip("2030-01-01T09:00:00+0530.5")).toEqual(Either.right("2030-01-01T09:00:00+05:30:00.500000"))
    expect(roundTrip("2030-01-01T09:00:00-00:00:01.5")).toEqual(Either.right("2030-01-01T09:00:00-00:00:01.500000"))
  })

  it("reads an offset whose hours, minutes and seconds are all zero as UTC, whatever its fraction", () => {
    expect(roundTrip("2030-01-01T09:00:00-00:00:00.5")).toEqual(Either.right("2030-01-01T09:00:00+00:00"))
    expect(epochSeconds("2030-01-01T09:00:00+00:00:00.5")).toEqual(Either.right(1893488400))
  })

  it("refuses separators mixed within the offset and a dot without digits", () => {
    for (const text of ["2030-01-01T09:00:00+0530:15", "2030-01-01T09:00:00+05:3015", "2030-01-01T09:00:00+05:30:15."]) {
      expect(fromIsoformat(text)).toEqual(Either.left(`Invalid isoformat string: '${text}'`))
    }
  })
})
