import { Either } from "effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { fromJs, pyIsSpace, pyJsonDumps, pyJsonLoads, pyLstrip, pyRepr, pyRstrip, pyStrip, pyStrRepr, pyTruthy, toHandlerValue } from "../../src/python/index.js"

// Every expected value below was produced by CPython (see vectors.py).
type Rec = Record<string, unknown>
const lines = readFileSync(fileURLToPath(new URL("./python-vectors.jsonl", import.meta.url)), "utf8").trim().split("\n")
const records = lines.map((l) => JSON.parse(l) as Rec)
const str = (r: Rec, k: string): string => r[k] as string
const loadsRecs = records.filter((r) => r["kind"] === undefined)

describe("python vectors", () => {
  it("covers a broad corpus", () => {
    expect(records[0]?.["kind"]).toBe("meta")
    expect(loadsRecs.length).toBeGreaterThan(2000)
  })

  it("json.loads / json.dumps / repr / bool agree with CPython", () => {
    const failures: Array<string> = []
    for (const r of loadsRecs) {
      const input = str(r, "in")
      const res = pyJsonLoads(input)
      const label = JSON.stringify(input).slice(0, 120)
      if (r["err"] !== undefined) {
        if (Either.isRight(res)) failures.push(`${label}: expected ${String(r["err"])} ${str(r, "msg")}, parsed OK`)
        else if (res.left.pyType !== r["err"] || res.left.message !== r["msg"]) {
          failures.push(`${label}: expected ${String(r["err"])} ${str(r, "msg")}, got ${res.left.pyType} ${res.left.message}`)
        }
        continue
      }
      if (Either.isLeft(res)) {
        failures.push(`${label}: expected OK, got ${res.left.message}`)
        continue
      }
      const v = res.right
      const got = {
        d0: pyJsonDumps(v),
        d1: pyJsonDumps(v, { sortKeys: true, separators: [",", ":"] }),
        d2: pyJsonDumps(v, { sortKeys: true, ensureAscii: false }),
        r: pyRepr(v),
        t: pyTruthy(v)
      }
      for (const k of ["d0", "d1", "d2", "r", "t"] as const) {
        if (got[k] !== r[k]) failures.push(`${label} [${k}]: expected ${JSON.stringify(r[k])}, got ${JSON.stringify(got[k])}`)
      }
    }
    expect(failures.slice(0, 20)).toEqual([])
  })

  it("repr(str) agrees with CPython, incl. chars newer than Python's Unicode tables", () => {
    for (const r of records.filter((x) => x["kind"] === "repr_str")) {
      expect(pyStrRepr(str(r, "in"))).toBe(r["r"])
    }
  })

  it("str.isspace set matches CPython exactly", () => {
    const rec = records.find((x) => x["kind"] === "isspace")
    const expected = new Set(rec?.["cps"] as Array<number>)
    for (let cp = 0; cp < 0x110000; cp++) {
      if (pyIsSpace(cp) !== expected.has(cp)) expect.fail(`U+${cp.toString(16)}`)
    }
  })

  it("strip/lstrip/rstrip agree with CPython", () => {
    for (const r of records.filter((x) => x["kind"] === "strip")) {
      const s = str(r, "in")
      expect([pyStrip(s), pyLstrip(s), pyRstrip(s)]).toEqual([r["strip"], r["lstrip"], r["rstrip"]])
      if (r["chars"] !== undefined) {
        const c = str(r, "chars")
        expect([pyStrip(s, c), pyLstrip(s, c), pyRstrip(s, c)]).toEqual([r["strip_chars"], r["lstrip_chars"], r["rstrip_chars"]])
      }
    }
  })

  it("toHandlerValue/fromJs round-trip preserves dumps output", () => {
    // Integral floats and big ints stay wrapped; only integer-like keys are left out (JS reorders them).
    let checked = 0
    for (const r of loadsRecs) {
      if (r["err"] !== undefined) continue
      const v = Either.getOrThrow(pyJsonLoads(str(r, "in")))
      const d = pyJsonDumps(v)
      if (/"\d+": /.test(d)) continue
      expect(pyJsonDumps(fromJs(toHandlerValue(v)))).toBe(d)
      checked++
    }
    expect(checked).toBeGreaterThan(200)
  })
})
