import { describe, expect, it } from "vitest"
import { renderSection, type StrykerMutant, summarize } from "../../tools/mutation/mutationReport.js"

const mutant = (id: string, line: number, status: string, statusReason?: string): StrykerMutant => ({
  id,
  mutatorName: "StringLiteral",
  replacement: `"${id}"`,
  status,
  location: { start: { line, column: 1 } },
  ...(statusReason === undefined ? {} : { statusReason })
})

const FILE = "packages/emulator/src/features/discovery/CapabilitiesDocument.ts"
const report = {
  files: {
    [FILE]: { mutants: [mutant("a", 10, "Killed"), mutant("b", 30, "Survived"), mutant("c", 70, "Survived"), mutant("d", 71, "NoCoverage")] },
    "packages/emulator/src/http/Auth.ts": { mutants: [mutant("e", 5, "Ignored", "keyless mode"), mutant("f", 6, "Ignored", "keyless mode"), mutant("g", 7, "Timeout")] }
  }
}
const meta = { measuredAt: "2026-12-04T00:00:00.000Z", commit: "0".repeat(40), loadAverage: 1, sample: undefined }

describe("the mutation summary", () => {
  it("counts a survivor inside a pin-only region of the coverage map as pin-only, and one outside as reachable", () => {
    const s = summarize(report, { equivalents: {}, pinOnly: {}, pinOnlyRegions: [{ file: "features/discovery/CapabilitiesDocument.ts", lines: "24-62", reason: "0.21.0 only" }] }, meta)
    expect(s.survivors.map((v) => [v.key.split(":")[1], v.pinOnly])).toEqual([["30", "0.21.0 only"], ["70", undefined], ["71", undefined]])
    expect(s.score).toBe(2 / 5)
    expect(s.scoreOverReachable).toBe(2 / 4)
  })

  it("a region without lines covers the whole file; a keyed entry still counts", () => {
    const whole = summarize(report, { equivalents: {}, pinOnly: {}, pinOnlyRegions: [{ file: "features/discovery/CapabilitiesDocument.ts", reason: "file" }] }, meta)
    expect(whole.scoreOverReachable).toBe(1)
    const keyed = summarize(report, { equivalents: {}, pinOnly: { [`${FILE}:71:StringLiteral:"d"`]: "keyed" } }, meta)
    expect(keyed.survivors.filter((v) => v.pinOnly !== undefined).map((v) => v.pinOnly)).toEqual(["keyed"])
  })

  it("counts a survivor in emulator machinery or socket-level code apart: out of a recording's reach, left out of the third figure only", () => {
    const s = summarize(
      report,
      {
        equivalents: {},
        pinOnly: {},
        pinOnlyRegions: [{ file: "features/discovery/CapabilitiesDocument.ts", lines: "24-62", reason: "0.21.0 only" }],
        outOfReachRegions: [{ file: "features/discovery/CapabilitiesDocument.ts", lines: "70", category: "no-gateway", reason: "emulator machinery" }]
      },
      meta
    )
    expect(s.survivors.map((v) => [v.key.split(":")[1], v.pinOnly, v.outOfReach])).toEqual([
      ["30", "0.21.0 only", undefined],
      ["70", undefined, "no-gateway: emulator machinery"],
      ["71", undefined, undefined]
    ])
    expect(s.scoreOverReachable).toBe(2 / 4)
    expect(s.scoreOverRecordable).toBe(2 / 3)
    expect(renderSection(s)).toContain("**66.7 %**")
    expect(renderSection(s)).toContain("— out of a recording's reach (no-gateway: emulator machinery)")
  })

  it("names a draw's lines carried onto later code as such, never as an estimate of the scope", () => {
    const drawn = renderSection(summarize(report, { equivalents: {}, pinOnly: {} }, { ...meta, sample: { lines: 4, seed: 31, codeLines: 900 } }))
    expect(drawn).toContain("**Estimated score: 40.0 %**")
    const carried = renderSection(summarize(report, { equivalents: {}, pinOnly: {} }, { ...meta, sample: { lines: 4, seed: 31, codeLines: 900, carriedFrom: "the seed-31 draw" } }))
    expect(carried).toContain("**Score on the lines of the seed-31 draw, carried onto this commit: 40.0 %**")
    expect(carried).toContain("Not an estimate of the scope")
    expect(carried).not.toContain("Estimated score")
  })

  it("leaves Ignored mutants out of the score and reports them by their comment's reason", () => {
    const s = summarize(report, { equivalents: {}, pinOnly: {} }, meta)
    expect(s.counts["Ignored"]).toBe(2)
    expect(s.ignored).toEqual([{ reason: "keyless mode", mutants: 2 }])
    expect(renderSection(s)).toContain("- 2 × keyless mode")
  })
})
