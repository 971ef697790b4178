/**
 * Python's float() of a str (values checked with python3.11: float(" 601.0 ") == 601.0,
 * float("\x1c1") raises ValueError, float("1e400") == inf, …).
 */
import { describe, expect, it } from "vitest"
import { pyFloatParse } from "../../src/python/index.js"

describe("pyFloatParse", () => {
  it("reads decimal text: a sign, a fraction either side of the point, an exponent, underscores between digits", () => {
    expect(pyFloatParse("601")).toBe(601)
    expect(pyFloatParse(" 601.0 ")).toBe(601)
    expect(pyFloatParse("1e3")).toBe(1000)
    expect(pyFloatParse("1E5")).toBe(100000)
    expect(pyFloatParse("1.e5")).toBe(100000)
    expect(pyFloatParse("+.5")).toBe(0.5)
    expect(pyFloatParse("5.")).toBe(5)
    expect(pyFloatParse("1.5e-3")).toBe(0.0015)
    expect(pyFloatParse("6_01")).toBe(601)
    expect(pyFloatParse("1e1_0")).toBe(1e10)
    expect(pyFloatParse("1_000.000_1")).toBe(1000.0001)
    expect(Object.is(pyFloatParse("-0"), -0)).toBe(true)
  })

  it("reads decimal digits of any script and strips ASCII and Unicode spaces, but not \\x1c-\\x1f", () => {
    expect(pyFloatParse("\u0666\u0660\u0661")).toBe(601)
    expect(pyFloatParse("\u{1d7d8}")).toBe(0)
    expect(pyFloatParse("\u20001\u2000")).toBe(1)
    expect(pyFloatParse("\u00851")).toBe(1)
    expect(pyFloatParse("\u000b1\u000c")).toBe(1)
    expect(pyFloatParse("\u001c1")).toBeUndefined()
    expect(pyFloatParse("1\u001f")).toBeUndefined()
    expect(pyFloatParse("1\u30001")).toBeUndefined()
    expect(pyFloatParse("\ufeff1")).toBeUndefined()
  })

  it("reads inf, infinity and nan in any case with a sign; an exponent past the range is inf", () => {
    expect(pyFloatParse("inf")).toBe(Number.POSITIVE_INFINITY)
    expect(pyFloatParse("+inf")).toBe(Number.POSITIVE_INFINITY)
    expect(pyFloatParse("-Infinity")).toBe(Number.NEGATIVE_INFINITY)
    expect(pyFloatParse("nAn")).toBeNaN()
    expect(pyFloatParse("-NaN")).toBeNaN()
    expect(pyFloatParse("1e400")).toBe(Number.POSITIVE_INFINITY)
    expect(pyFloatParse("-1e400")).toBe(Number.NEGATIVE_INFINITY)
  })

  it("refuses what float() refuses", () => {
    for (const text of ["1_", "_1", "1__0", "1_.5", "1._5", "1e", "1e+", "0x10", "1 0", "12a", "", "  ", "+-1", "--1", "infinit", ".e5", ".", "inf inity"]) {
      expect(pyFloatParse(text), text).toBeUndefined()
    }
  })
})
