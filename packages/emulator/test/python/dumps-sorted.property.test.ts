/**
 * `pyDumps(value, ensureAscii, sortKeys)` walks handler values directly; `fromJs` then
 * `pyJsonDumps` (the Python codec, checked against python3 elsewhere) builds the PyValue first.
 * Both must write the same bytes — the ledger stores run statuses with the first and clients read
 * them back — for plain JS data and for what a parsed request becomes (PyFloat, big PyInt, dicts).
 */
import { Either } from "effect"
import fc from "fast-check"
import { propertyParams } from "../../../../test/support/propertySeed.js"
import { describe, expect, it } from "vitest"
import { fromJs, PyFloat, pyDumps, pyJsonDumps, pyJsonLoads, toHandlerValue } from "../../src/python/index.js"

const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("b", "a", "é", "\u{1f600}", "__proto__", "10", "2", "Z"))
const leaf = fc.oneof(
  fc.string({ maxLength: 8, unit: "binary" }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, 1e21, -1e22, 2 ** 53 + 2, 1.5, 1e-7),
  fc.double({ noNaN: true }).map((d) => new PyFloat(d)),
  fc.boolean(),
  fc.constant(null)
)
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("v"), { maxLength: 3 }), fc.dictionary(key, tie("v"), { maxKeys: 4 }))
})).v

const jsonText = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v))

describe("pyDumps with sorted keys", () => {
  for (const sortKeys of [true, false]) {
    for (const ensureAscii of [true, false]) {
      it(`writes fromJs + pyJsonDumps' bytes for plain JS values (sortKeys ${sortKeys}, ensureAscii ${ensureAscii})`, () => {
        fc.assert(
          fc.property(value, (v) => {
            expect(pyDumps(v, ensureAscii, sortKeys)).toBe(pyJsonDumps(fromJs(v), { sortKeys, ensureAscii }))
          }),
          propertyParams(32_01, { numRuns: 500 })
        )
      })
    }
  }

  it("writes the same bytes for a parsed request's handler values", () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const parsed = pyJsonLoads(text)
        if (Either.isLeft(parsed)) return
        const handler = toHandlerValue(parsed.right)
        expect(pyDumps(handler, true, true)).toBe(pyJsonDumps(fromJs(handler), { sortKeys: true }))
      }),
      propertyParams(43_01, { numRuns: 500 })
    )
  })

  it("sorts by code point, as Python sorts str", () => {
    expect(pyDumps({ b: 1, a: 2, "\u{1f600}": 3, "\uffff": 4, "10": 5, "2": 6 }, true, true)).toBe(
      "{\"10\": 5, \"2\": 6, \"a\": 2, \"b\": 1, \"\\uffff\": 4, \"\\ud83d\\ude00\": 3}"
    )
  })
})
