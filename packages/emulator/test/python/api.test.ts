import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { fromJs, PyFloat, pyFloat, PyInt, pyJsonDumps, pyJsonLoads, pyTruthy, type PyValue, PyValueError, toHandlerValue } from "../../src/python/index.js"

// JS-side API contracts. Python-visible output is compared against what
// pyJsonLoads (itself checked against CPython vectors) yields for the same text.
const loads = (t: string): PyValue => Either.getOrThrow(pyJsonLoads(t))
const same = (a: PyValue, b: PyValue) => expect(pyJsonDumps(a)).toBe(pyJsonDumps(b))

describe("fromJs", () => {
  it("maps integral numbers to int, others (and -0) to float", () => {
    same(fromJs({ a: 1, b: 1.5, c: -0, d: 2n ** 70n, e: [null, true, "x"] }), loads('{"a": 1, "b": 1.5, "c": -0.0, "d": 1180591620717411303424, "e": [null, true, "x"]}'))
    same(fromJs([NaN, Infinity, -Infinity]), loads("[NaN, Infinity, -Infinity]"))
  })

  it("lets embedded PyValues through, so handlers can force 1.0", () => {
    same(fromJs({ n: pyFloat(1), m: new Map([["z", 1], ["a", 2]]) }), loads('{"n": 1.0, "m": {"z": 1, "a": 2}}'))
  })

  it("follows JSON.stringify for undefined/functions and toJSON", () => {
    same(fromJs({ a: undefined, b: [undefined, () => 1], c: { toJSON: () => "x" } }), loads('{"b": [null, null], "c": "x"}'))
  })
})

describe("toHandlerValue", () => {
  it("keeps what JS would lose wrapped: big ints and integral floats", () => {
    const v = loads("[9007199254740993, 1.0, -0.0, 2, 2.5]")
    expect(toHandlerValue(v)).toEqual([new PyInt(9007199254740993n), new PyFloat(1), new PyFloat(-0), 2, 2.5])
  })

  it("keeps __proto__ as data", () => {
    const o = toHandlerValue(loads('{"__proto__": {"polluted": 1}}')) as Record<string, unknown>
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype)
    expect(Object.keys(o)).toEqual(["__proto__"])
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
  })
})

describe("pyTruthy on plain JS stand-ins", () => {
  it("treats empty containers as falsy and NaN as truthy", () => {
    expect([[], {}, 0, -0, 0n, "", null, undefined, false, new Map()].map(pyTruthy)).toEqual(Array(10).fill(false))
    expect([[0], { a: 0 }, NaN, 1n, "0", " ", true].map(pyTruthy)).toEqual(Array(7).fill(true))
    expect(pyTruthy(new PyFloat(NaN))).toBe(true)
    expect(pyTruthy(new PyInt(0n))).toBe(false)
  })
})

describe("pyJsonLoads details", () => {
  it("exposes structured position info in code points", () => {
    const res = pyJsonLoads("\n\"\ud83d\ude00\" x")
    expect(Either.isLeft(res) && [res.left.pyType, res.left.pos, res.left.lineno, res.left.colno]).toEqual(["JSONDecodeError", 5, 2, 5])
  })

  it("honours maxDepth", () => {
    expect(Either.isRight(pyJsonLoads("[[[]]]", { maxDepth: 3 }))).toBe(true)
    const res = pyJsonLoads("[[{}]]", { maxDepth: 2 })
    expect(Either.isLeft(res) && res.left.pyType).toBe("RecursionError")
  })

  it("reads and writes a large body as Python's json does (20,000 objects, sort_keys)", () => {
    const big = JSON.stringify(Array.from({ length: 20000 }, (_, i) => ({ id: i, name: `item ${i} é`, v: i / 7, ok: i % 2 === 0 })))
    // Python's json.dumps(json.loads(big), sort_keys=True): ", "/": " separators, ensure_ascii, and each
    // number as the text wrote it (JSON.stringify writes 7/7 as "1", which Python reads as an int)
    const expected = `[${Array.from({ length: 20000 }, (_, i) => `{"id": ${i}, "name": "item ${i} \\u00e9", "ok": ${i % 2 === 0 ? "true" : "false"}, "v": ${i / 7}}`).join(", ")}]`
    expect(pyJsonDumps(loads(big), { sortKeys: true })).toBe(expected)
  })
})

describe("pyJsonDumps errors", () => {
  it("raises ValueError where Python would", () => {
    expect(() => pyJsonDumps(pyFloat(NaN), { allowNan: false })).toThrow(PyValueError)
    expect(() => pyJsonDumps(new PyInt(10n ** 4300n))).toThrow(PyValueError)
  })
})
