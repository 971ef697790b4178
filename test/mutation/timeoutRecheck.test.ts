import { describe, expect, it } from "vitest"
import { renderSection, type StrykerMutant, summarize } from "../../tools/mutation/mutationReport.js"
import { applyRecheck, timedOutLines } from "../../tools/mutation/timeoutRecheck.js"

const mutant = (id: string, line: number, column: number, status: string): StrykerMutant => ({
  id,
  mutatorName: "ConditionalExpression",
  replacement: "false",
  status,
  location: { start: { line, column } }
})
const A = "packages/emulator/src/agent/AgentMessages.ts"
const B = "packages/emulator/src/http/NodeAdapter.ts"
const first = {
  files: {
    [A]: { mutants: [mutant("1", 118, 5, "Timeout"), mutant("2", 118, 20, "Timeout"), mutant("3", 40, 1, "Killed")] },
    [B]: { mutants: [mutant("4", 407, 3, "Timeout"), mutant("5", 12, 1, "Survived")] }
  }
}
const meta = { measuredAt: "2026-12-04T00:00:00.000Z", commit: "0".repeat(40), loadAverage: 1, sample: undefined }

describe("re-running timed-out mutants alone", () => {
  it("asks for each line that holds a Timeout once", () => {
    expect(timedOutLines(first)).toEqual([`${A}:118-118`, `${B}:407-407`])
  })

  it("gives each Timeout the second run's status for the same place and replacement, and counts what it became", () => {
    // the second run numbers its mutants anew and mutates the whole line again: ids differ, places match
    const second = {
      files: {
        [A]: { mutants: [mutant("x", 118, 5, "Survived"), mutant("y", 118, 20, "Timeout")] },
        [B]: { mutants: [mutant("z", 407, 3, "Killed")] }
      }
    }
    const { recheck, report } = applyRecheck(first, second, 60000)
    expect(report.files[A]?.mutants.map((m) => m.status)).toEqual(["Survived", "Timeout", "Killed"])
    expect(report.files[B]?.mutants.map((m) => m.status)).toEqual(["Killed", "Survived"])
    expect(recheck).toEqual({ timeoutMs: 60000, rerun: 3, stillTimedOut: 1, became: { Survived: 1, Killed: 1 } })
    // a slow pass that became Survived lowers the score the report shows, and the section says so
    const s = summarize(report, { equivalents: {}, pinOnly: {} }, { ...meta, timeoutRecheck: recheck })
    expect(s.score).toBe(3 / 5)
    expect(renderSection(s)).toContain("Timeouts re-run alone (one runner, 60 s): 1 of 3 timed out again")
  })

  it("keeps a Timeout the second run did not measure", () => {
    const { recheck, report } = applyRecheck(first, { files: {} }, 60000)
    expect(report.files[A]?.mutants[0]?.status).toBe("Timeout")
    expect(recheck.rerun).toBe(0)
  })
})
