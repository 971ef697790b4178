import { describe, expect, it } from "vitest"
import { renderSection, type StrykerMutant, summarize } from "../../tools/mutation/mutationReport.js"
import { applyRecheck, placesOf } from "../../tools/mutation/recheck.js"

const mutant = (id: string, line: number, column: number, status: string, killedBy?: ReadonlyArray<string>): StrykerMutant => ({
  id,
  mutatorName: "ConditionalExpression",
  replacement: "false",
  status,
  location: { start: { line, column } },
  ...(killedBy === undefined ? {} : { killedBy })
})
const A = "packages/emulator/src/agent/AgentMessages.ts"
const B = "packages/emulator/src/http/NodeAdapter.ts"
const first = {
  files: {
    [A]: { mutants: [mutant("1", 118, 5, "Timeout"), mutant("2", 118, 20, "Timeout"), mutant("3", 40, 1, "Killed"), mutant("6", 41, 1, "Survived")] },
    [B]: { mutants: [mutant("4", 407, 3, "Timeout"), mutant("5", 12, 1, "Survived"), mutant("7", 13, 1, "Survived")] }
  }
}
const meta = { measuredAt: "2026-12-04T00:00:00.000Z", commit: "0".repeat(40), loadAverage: 1, sample: undefined }

describe("running mutants of one status again", () => {
  it("asks for each mutant's own span, in Stryker's columns from 0 (its line when the report has no end)", () => {
    expect(placesOf(first, "Timeout")).toEqual([`${A}:118-118`, `${B}:407-407`])
    const spanned = { files: { [A]: { mutants: [{ ...mutant("8", 41, 7, "Survived"), location: { start: { line: 41, column: 7 }, end: { line: 42, column: 3 } } }] } } }
    expect(placesOf(spanned, "Survived")).toEqual([`${A}:41:6-42:2`])
  })

  it("gives each Timeout the second run's status for the same place and replacement, and counts what it became", () => {
    // the second run numbers its mutants anew and mutates the whole line again: ids differ, places match
    const second = {
      files: {
        [A]: { mutants: [mutant("x", 118, 5, "Survived"), mutant("y", 118, 20, "Timeout")] },
        [B]: { mutants: [mutant("z", 407, 3, "Killed")] }
      }
    }
    const { recheck, report } = applyRecheck(first, second, "Timeout", "alone")
    expect(report.files[A]?.mutants.map((m) => m.status)).toEqual(["Survived", "Timeout", "Killed", "Survived"])
    expect(report.files[B]?.mutants.map((m) => m.status)).toEqual(["Killed", "Survived", "Survived"])
    expect(recheck).toMatchObject({ of: "Timeout", rerun: 3, unchanged: 1, became: { Survived: 1, Killed: 1 } })
    // a slow pass that became Survived lowers the score the report shows, and the section says so
    const s = summarize(report, { equivalents: {}, pinOnly: {} }, { ...meta, rechecks: [recheck] })
    expect(s.score).toBe(3 / 7)
    expect(renderSection(s)).toContain("Timeouts run again (alone): 1 of 3 timed out again")
  })

  it("settles a survivor only when the whole suite kills it, and names the test that did", () => {
    const second = {
      files: {
        [A]: { mutants: [mutant("p", 41, 1, "Killed", ["t9"])] },
        [B]: { mutants: [mutant("q", 12, 1, "Timeout"), mutant("r", 13, 1, "Survived")] }
      },
      testFiles: { "packages/diff/test/cassettes.replay.test.ts": { tests: [{ id: "t9", name: "cassette runs-held-events" }] } }
    }
    const { recheck, report } = applyRecheck(first, second, "Survived", "the whole suite")
    // a Timeout under the whole suite on a loaded machine proves nothing: the survivor stays
    expect(report.files[B]?.mutants.map((m) => m.status)).toEqual(["Timeout", "Survived", "Survived"])
    expect(report.files[A]?.mutants[3]?.status).toBe("Killed")
    expect(recheck).toMatchObject({ rerun: 3, unchanged: 2, became: { Killed: 1 } })
    expect(recheck.killed).toEqual([{ key: `${A}:41:ConditionalExpression:false`, by: ["cassette runs-held-events"] }])
    const section = renderSection(summarize(report, { equivalents: {}, pinOnly: {} }, { ...meta, rechecks: [recheck] }))
    expect(section).toContain("Survivors run again (the whole suite): 2 of 3 survived again")
    expect(section).toContain("`agent/AgentMessages.ts:41:ConditionalExpression:false` by cassette runs-held-events")
  })

  it("keeps a mutant the second run did not measure", () => {
    const { recheck, report } = applyRecheck(first, { files: {} }, "Timeout", "alone")
    expect(report.files[A]?.mutants[0]?.status).toBe("Timeout")
    expect(recheck.rerun).toBe(0)
  })
})
