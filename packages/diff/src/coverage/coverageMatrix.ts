/**
 * The coverage matrix: operation × HTTP status, computed from the scenarios' evidence alone (so a
 * merge of shards computes the same matrix as one unsharded run). "implemented" comes from the
 * emulator's route table for the pin; "exercised" means the emulator answered that status;
 * "verified" means the real gateway answered it too, in an exchange the differ found no
 * divergence in. Upstream operations the emulator lacks are listed so the gap stays visible.
 */
import type { CoverageRow, ScenarioEvidence } from "../evidence/Evidence.js"
import { operationOf, operationsFor } from "./Operations.js"

interface Cell {
  exercised: boolean
  verified: boolean
  seenOnReal: boolean
}

export const coverageMatrix = (pin: string, referenceIsReal: boolean, scenarios: ReadonlyArray<ScenarioEvidence>): Array<CoverageRow> => {
  const cells = new Map<string, Map<number, Cell>>()
  const cell = (op: string, status: number): Cell => {
    const byStatus = cells.get(op) ?? new Map<number, Cell>()
    cells.set(op, byStatus)
    const c = byStatus.get(status) ?? { exercised: false, verified: false, seenOnReal: false }
    byStatus.set(status, c)
    return c
  }
  for (const scenario of scenarios) {
    for (const step of scenario.steps) {
      step.candidate?.exchanges.forEach((ex, i) => {
        const op = operationOf(ex.request.method, ex.request.path)
        const mine = ex.response?.status
        if (mine !== undefined) cell(op, mine).exercised = true
        const theirs = step.reference?.exchanges[i]?.response?.status
        if (theirs === undefined || !referenceIsReal) return
        const c = cell(op, theirs)
        c.seenOnReal = true
        const divergent = step.differences.some((d) => d.exchange === i && d.classification === "divergence")
        if (theirs === mine && !divergent) c.verified = true
      })
    }
  }
  const statusesOf = (op: string) =>
    [...(cells.get(op) ?? new Map<number, Cell>())].sort(([a], [b]) => a - b).map(([status, c]) => ({ status, ...c }))
  const operations = operationsFor(pin)
  const rows: Array<CoverageRow> = operations.map((op) => ({ operation: op.id, method: op.method, path: op.path, implemented: op.implemented, statuses: statusesOf(op.id) }))
  // requests that hit no upstream route (404/405 probes) get rows of their own
  for (const op of [...cells.keys()].sort()) {
    if (operations.some((o) => o.id === op)) continue
    rows.push({ operation: op, method: "*", path: "*", implemented: true, statuses: statusesOf(op) })
  }
  return rows
}
