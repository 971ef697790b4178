/**
 * Python's int() on query text, as the real 0.19.0 gateway read GET /api/sessions?limit=
 * (fixtures/0.19.0/sessions-list-paging-read-by-python-s-int-unicode-decimal-digits-spaces-sign.json),
 * and int() of Unicode decimal digit runs (values checked with python3: int("\U0001d7d7") == 9).
 */
import { describe, expect, it } from "vitest"
import { parseNonNegativeInt, pyDecimalDigitsValue, pyIntParse } from "../../src/python/index.js"

describe("pyIntParse", () => {
  it("reads decimal digits of any script, mixed, with single underscores, a sign and Unicode spaces", () => {
    expect(pyIntParse("\u0663")).toBe(3n)
    expect(pyIntParse("\uff12")).toBe(2n)
    expect(pyIntParse("1\u0663")).toBe(13n)
    expect(pyIntParse("\u{1d7d0}")).toBe(2n)
    expect(pyIntParse("\u2003\u0662\u2003")).toBe(2n)
    expect(pyIntParse("-\u0661")).toBe(-1n)
    expect(pyIntParse("+7")).toBe(7n)
    expect(pyIntParse("\u0661_\u0660")).toBe(10n)
    expect(pyIntParse("12345678901234567891")).toBe(12345678901234567891n)
  })

  it("refuses what int() refuses", () => {
    expect(pyIntParse("\u00b2")).toBeUndefined() // a digit (No), not a decimal (Nd)
    expect(pyIntParse("\u0661__\u0660")).toBeUndefined()
    expect(pyIntParse("_1")).toBeUndefined()
    expect(pyIntParse("1_")).toBeUndefined()
    expect(pyIntParse("")).toBeUndefined()
    expect(pyIntParse("1.0")).toBeUndefined()
  })

  it("feeds the list's limit and offset", () => {
    expect(parseNonNegativeInt("\u0663", 50, 200)).toBe(3)
    expect(parseNonNegativeInt("-\u0661", 50, 200)).toBe(50)
    expect(parseNonNegativeInt("\u0662\u0660\u0661", 50, 200)).toBe(200)
  })
})

describe("pyDecimalDigitsValue", () => {
  it("gives each digit its place in its set of ten, across adjacent sets", () => {
    // U+1D7CE..U+1D7FF: five mathematical digit sets back to back (python3: int(...) == 909)
    expect(pyDecimalDigitsValue("\u{1d7ce}\u{1d7d7}\u{1d7d8}\u{1d7ff}")).toBe(909n)
    expect(pyDecimalDigitsValue("0123456789")).toBe(123456789n)
    expect(pyDecimalDigitsValue("\u0969\u09ea")).toBe(34n) // Devanagari three, Bengali four
  })
})
