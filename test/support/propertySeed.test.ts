/** The property tests' seed: fixed by default, FC_SEED replays one or draws one, and a failure names it. */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { propertyParams, propertySeed } from "./propertySeed.js"

describe("propertySeed", () => {
  it("is the test's own seed unless FC_SEED names one or asks for a random one", () => {
    expect(propertySeed(7, {})).toBe(7)
    expect(propertySeed(7, { FC_SEED: "" })).toBe(7)
    expect(propertySeed(7, { FC_SEED: "1234" })).toBe(1234)
    const drawn = new Set(Array.from({ length: 5 }, () => propertySeed(7, { FC_SEED: "random" })))
    expect(drawn.size).toBeGreaterThan(1)
    expect(() => propertySeed(7, { FC_SEED: "soon" })).toThrow("FC_SEED is an integer or \"random\", not soon")
  })

  it("reports a failing property with its seed and how to replay it", () => {
    const params = propertyParams(4242, { numRuns: 50 })
    expect(() => fc.assert(fc.property(fc.nat(), (n) => n < 5), params)).toThrow(new RegExp(`seed ${params.seed}: replay with FC_SEED=${params.seed}`))
    // the same seed finds the same counterexample
    const counterexample = () => fc.check(fc.property(fc.nat(), (n) => n < 5), { seed: params.seed ?? 0, numRuns: 50 }).counterexample
    expect(counterexample()).toEqual(counterexample())
  })
})

describe("the default suite's property tests", () => {
  it("every fc.assert and fc.sample takes its seed from propertySeed.ts", () => {
    const root = new URL("../../packages/", import.meta.url).pathname
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => /\/test\/.*\.test\.ts$/.test(f) && !f.includes("node_modules"))
    const unseeded = files.flatMap((f) => {
      const text = readFileSync(join(root, f), "utf8")
      const calls = (text.match(/fc\.(assert|sample)\(/g) ?? []).length
      const seeded = (text.match(/propertyParams\(|propertySeed\(/g) ?? []).length
      return calls > seeded ? [`${f}: ${calls} fc.assert/fc.sample, ${seeded} seeded`] : []
    })
    expect(files.length).toBeGreaterThan(10)
    expect(unseeded).toEqual([])
  })
})
