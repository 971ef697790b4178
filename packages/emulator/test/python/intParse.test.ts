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

  it("refuses more than 4300 digits, counted without sign, underscores and spaces (sys.get_int_max_str_digits)", () => {
    // python3.11: int("1" * 4301) raises ValueError; int("-" + "1" * 4300), int(" " + "1" * 4300 + " ")
    // and int("1_" * 2150 + "1" * 2150) (6450 characters, 4300 digits) do not; leading zeros count
    expect(pyIntParse("1".repeat(4300))).toBe(BigInt("1".repeat(4300)))
    expect(pyIntParse("1".repeat(4301))).toBeUndefined()
    expect(pyIntParse("0".repeat(4301))).toBeUndefined()
    expect(pyIntParse("\u0661".repeat(4301))).toBeUndefined()
    expect(pyIntParse(`-${"1".repeat(4300)}`)).toBe(-BigInt("1".repeat(4300)))
    expect(pyIntParse(`+${"1".repeat(4300)}`)).toBe(BigInt("1".repeat(4300)))
    expect(pyIntParse(` ${"1".repeat(4300)} `)).toBe(BigInt("1".repeat(4300)))
    expect(pyIntParse(`${"1_".repeat(2150)}${"1".repeat(2150)}`)).toBe(BigInt("1".repeat(4300)))
    expect(pyIntParse(`${"1_".repeat(4300)}1`)).toBeUndefined()
    // astral digits (two UTF-16 units each) count once: int("\U0001d7cf" * 4300) parses, * 4301 does not
    expect(pyIntParse("\u{1d7cf}".repeat(4300))).toBe(BigInt("1".repeat(4300)))
    expect(pyIntParse("\u{1d7cf}".repeat(4301))).toBeUndefined()
  })

  it("gives the default for a limit or offset over the digit limit, not the cap", () => {
    expect(parseNonNegativeInt("1".repeat(4300), 50, 200)).toBe(200)
    expect(parseNonNegativeInt("1".repeat(4301), 50, 200)).toBe(50)
    expect(parseNonNegativeInt("1".repeat(4301), 0, 1_000_000)).toBe(0)
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
