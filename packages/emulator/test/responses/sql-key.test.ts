/**
 * A conversation name or response id that is not a string, as sqlite3 binds it against a TEXT
 * column: a float becomes SQLite's `%!.15g` text (observed live on 0.19.0: scenarios/
 * responses-conversation-names-not-strings.json), NaN binds as NULL.
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { sqlKey } from "../../src/features/responses/ResponseStore.js"
import { PyFloat, pyJsonLoads } from "../../src/python/index.js"

const keyOf = (json: string) => sqlKey(Either.getOrThrow(pyJsonLoads(json)))

describe("sqlKey", () => {
  it.each([
    ["1e20", "1.0e+20"],
    ["1.5e-7", "1.5e-07"],
    ["1e-5", "1.0e-05"],
    ["1e15", "1.0e+15"],
    ["123456789012345678.0", "1.23456789012346e+17"],
    ["-2.5e+300", "-2.5e+300"],
    ["999999999999999.9", "1.0e+15"],
    ["0.0001", "0.0001"],
    ["0.30000000000000004", "0.3"],
    ["2.0", "2.0"],
    ["-0.0", "0.0"],
    ["1.5", "1.5"],
    ["123456.789", "123456.789"],
    ["Infinity", "Inf"],
    ["-Infinity", "-Inf"]
  ])("a float %s binds as %s", (json, text) => {
    expect(keyOf(json)).toEqual(Either.right(text))
  })

  it("NaN binds as NULL: no name", () => {
    expect(sqlKey(new PyFloat(NaN))).toEqual(Either.right(null))
  })

  it("ints, bools and text as sqlite3 binds them; past int64 the bind raises", () => {
    expect(keyOf("9007199254740993")).toEqual(Either.right("9007199254740993"))
    expect(keyOf("false")).toEqual(Either.right("0"))
    expect(keyOf('"c"')).toEqual(Either.right("c"))
    expect(Either.isLeft(keyOf("-9223372036854775809"))).toBe(true)
  })
})
