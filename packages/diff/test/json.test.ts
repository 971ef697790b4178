import { describe, expect, it } from "vitest"
import { jsonTypeOf } from "../src/json/JsonValue.js"
import { parseJsonPreservingNumbers } from "../src/json/parseJsonPreservingNumbers.js"
import { stableStringify } from "../src/json/stableStringify.js"

describe("parseJsonPreservingNumbers", () => {
  it("keeps Python's int/float distinction and big ints", () => {
    const v = parseJsonPreservingNumbers('{"a": 1.0, "b": 1, "c": 1.5, "d": 12345678901234567890, "e": 1e3, "s": "1.0 and 2"}')
    expect(v).toEqual({ a: { $float: "1.0" }, b: 1, c: 1.5, d: { $bigint: "12345678901234567890" }, e: { $float: "1e3" }, s: "1.0 and 2" })
    expect(jsonTypeOf({ $float: "1.0" })).toBe("float")
    expect(jsonTypeOf(1)).toBe("int")
  })

  it("lines numbers up across nesting and escaped strings", () => {
    expect(parseJsonPreservingNumbers('[{"x": "a\\"1.0", "y": [2.0, 3]}, 4.25]')).toEqual([{ x: 'a"1.0', y: [{ $float: "2.0" }, 3] }, 4.25])
  })

  it("reads Python's bare NaN, Infinity and -Infinity as floats, and leaves them alone inside strings", () => {
    expect(parseJsonPreservingNumbers('{"a": NaN, "b": [Infinity, -Infinity, 1.0], "s": "NaN -Infinity", "n": 2}')).toEqual({
      a: { $float: "NaN" },
      b: [{ $float: "Infinity" }, { $float: "-Infinity" }, { $float: "1.0" }],
      s: "NaN -Infinity",
      n: 2
    })
    expect(parseJsonPreservingNumbers("NaN")).toEqual({ $float: "NaN" })
    expect(() => parseJsonPreservingNumbers('{"a": Nan}')).toThrow(SyntaxError)
    expect(() => parseJsonPreservingNumbers('{"a": NaN}', { pythonNonFinite: false })).toThrow(SyntaxError)
  })

  it("throws on invalid JSON like JSON.parse", () => {
    expect(() => parseJsonPreservingNumbers("{nope")).toThrow(SyntaxError)
  })
})

describe("stableStringify", () => {
  it("sorts object keys at every depth and keeps array order", () => {
    expect(stableStringify({ b: 1, a: { d: [3, 1], c: null } })).toBe('{\n  "a": {\n    "c": null,\n    "d": [\n      3,\n      1\n    ]\n  },\n  "b": 1\n}\n')
  })
})

describe("stableStringify verbatim subtrees", () => {
  it("keeps the key order under the named keys", () => {
    expect(stableStringify({ z: { b: 1, a: 2 }, scenario: { b: 1, a: 2 } }, ["scenario"])).toBe('{\n  "scenario": {\n    "b": 1,\n    "a": 2\n  },\n  "z": {\n    "a": 2,\n    "b": 1\n  }\n}\n')
  })
})
