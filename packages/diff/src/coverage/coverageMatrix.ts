/**
 * The coverage matrix: operation × HTTP status. "implemented" comes from the emulator's route
 * table for the pin; "exercised" means the emulator answered that status in this comparison;
 * "verified" means the real gateway answered it too, in an exchange the differ found no
 * divergence in. Upstream operations the emulator lacks are listed so the gap stays visible.
 */
import { features, isPinName, routesFor } from "./emulatorRoutes.js"
import type { CoverageRow } from "../evidence/Evidence.js"
import type { ScenarioComparison } from "../compare/compareScenario.js"
import { OPERATIONS, operationOf } from "./Operations.js"

interface Cell {
  exercised: boolean
  verified: boolean
  seenOnReal: boolean
}

export const coverageMatrix = (pin: string, referenceIsReal: boolean, comparisons: ReadonlyArray<ScenarioComparison>): Array<CoverageRow> => {
  const implemented = new Set(isPinName(pin) ? routesFor(features(pin)).map((r: { readonly id: string }) => r.id) : [])
  const cells = new Map<string, Map<number, Cell>>()
  const cell = (op: string, status: number): Cell => {
    const byStatus = cells.get(op) ?? new Map<number, Cell>()
    cells.set(op, byStatus)
    const c = byStatus.get(status) ?? { exercised: false, verified: false, seenOnReal: false }
    byStatus.set(status, c)
    return c
  }
  for (const comparison of comparisons) {
    const { reference, candidate, evidence } = comparison
    if (reference === undefined || candidate === undefined) continue
    candidate.steps.forEach((step, s) => {
      step.exchanges.forEach((ex, i) => {
        const op = operationOf(ex.request.method, ex.request.path)
        const mine = ex.response?.status
        if (mine !== undefined) cell(op, mine).exercised = true
        const theirs = reference.steps[s]?.exchanges[i]?.response?.status
        if (theirs === undefined || !referenceIsReal) return
        const c = cell(op, theirs)
        c.seenOnReal = true
        const divergent = evidence.steps[s]?.differences.some((d) => d.exchange === i && d.classification === "divergence") ?? true
        if (theirs === mine && !divergent) c.verified = true
      })
    })
  }
  const rows: Array<CoverageRow> = OPERATIONS.filter((op) => op.pins === undefined || op.pins.includes(pin)).map((op) => ({
    operation: op.id,
    method: op.method,
    path: op.path,
    implemented: implemented.has(op.id),
    statuses: [...(cells.get(op.id) ?? new Map<number, Cell>())].sort(([a], [b]) => a - b).map(([status, c]) => ({ status, ...c }))
  }))
  // requests that hit no upstream route (404/405 probes) get rows of their own
  for (const [op, byStatus] of cells) {
    if (OPERATIONS.some((o) => o.id === op)) continue
    rows.push({ operation: op, method: "*", path: "*", implemented: true, statuses: [...byStatus].sort(([a], [b]) => a - b).map(([status, c]) => ({ status, ...c })) })
  }
  return rows
}
