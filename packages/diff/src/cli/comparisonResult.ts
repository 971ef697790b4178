/** The result of a command that produced evidence (compare, replay against a reference, merge): the summary table, and the same as a document. */
import { exitCodeOf } from "../compare/compareAll.js"
import type { Evidence } from "../evidence/Evidence.js"
import type { WrittenEvidence } from "../evidence/writeEvidence.js"
import type { CommandResult } from "./OracleDocument.js"
import { summaryTable } from "./summaryTable.js"

export const comparisonResult = (command: "compare" | "replay" | "merge", evidence: Evidence, written: WrittenEvidence | undefined, extraText = ""): CommandResult => {
  const exitCode = exitCodeOf(evidence)
  const scenarios = evidence.scenarios.map((s) => {
    const ds = [...s.steps.flatMap((st) => st.differences), ...s.differences]
    const divergences = ds.filter((d) => d.classification === "divergence").length
    return { name: s.name, verdict: s.verdict, divergences, tolerated: ds.length - divergences, ...(s.error !== undefined ? { error: s.error } : {}) }
  })
  return {
    exitCode,
    text: summaryTable(evidence) + extraText + (written === undefined ? "" : `evidence: ${written.json}\nreport:   ${written.report}\nhtml:     ${written.html}\njunit:    ${written.junit}\n`),
    document: { command, exitCode, summary: evidence.summary, scenarios, ...(written !== undefined ? { written } : {}) }
  }
}
