import { describe, expect, it } from "vitest"
import { encodeContent } from "../../src/features/sessions/MessageContent.js"
import { sqliteRealText } from "../../src/features/sessions/SqliteRealText.js"
import { PyFloat } from "../../src/python/index.js"

// the expected texts are what SQLite 3.40.1 (0.19.0's Python) returned for these REALs in a TEXT column
describe("sqliteRealText", () => {
  it("writes %!.15g: 15 significant digits, a decimal point, a two-digit exponent", () => {
    expect(sqliteRealText(1e300)).toBe("1.0e+300")
    expect(sqliteRealText(1e-7)).toBe("1.0e-07")
    expect(sqliteRealText(1.5)).toBe("1.5")
    expect(sqliteRealText(2)).toBe("2.0")
    expect(sqliteRealText(0.1 + 0.2)).toBe("0.3")
    expect(sqliteRealText(123456789012345680000)).toBe("1.23456789012346e+20")
  })

  it("switches to an exponent below 1e-4 and from 1e15", () => {
    expect(sqliteRealText(0.0001)).toBe("0.0001")
    expect(sqliteRealText(0.00001)).toBe("1.0e-05")
    expect(sqliteRealText(1e14)).toBe("100000000000000.0")
    expect(sqliteRealText(1e15)).toBe("1.0e+15")
    expect(sqliteRealText(-2.5e-7)).toBe("-2.5e-07")
  })

  it("is what a float message content is stored as", () => {
    expect(encodeContent(1e-7)).toBe("1.0e-07")
    expect(encodeContent(new PyFloat(1e300))).toBe("1.0e+300")
    expect(encodeContent(new PyFloat(2))).toBe("2.0")
  })
})
