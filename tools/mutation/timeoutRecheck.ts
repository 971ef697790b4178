/**
 * A Timeout counts as detected, but on a loaded 2-core machine a mutant that would have passed can
 * run out of time: the run beside a live comparison or other Stryker runs reported 16 of 188
 * mutants Timeout. So after a run, the timed-out mutants' lines are mutated again alone (one
 * runner, a longer timeout) and each Timeout takes the status that second run gives it: a genuine
 * hang (a loop that no longer ends) times out again, a slow pass becomes Survived.
 */
import type { StrykerMutant, StrykerReport } from "./mutationReport.js"

/** How the second run settled the first run's timeouts; part of the run's meta. */
export interface TimeoutRecheck {
  readonly timeoutMs: number
  /** Timeouts of the first run found again in the second. */
  readonly rerun: number
  /** Of those, how many timed out again (genuine hangs). */
  readonly stillTimedOut: number
  /** The statuses the others took instead. */
  readonly became: Readonly<Record<string, number>>
}

/** The `file:L-L` ranges holding a Timeout, for HERMETIC_MUTATE. */
export const timedOutLines = (report: StrykerReport): ReadonlyArray<string> => {
  const lines = new Set<string>()
  for (const [file, { mutants }] of Object.entries(report.files)) {
    for (const m of mutants) if (m.status === "Timeout") lines.add(`${file}:${m.location.start.line}-${m.location.start.line}`)
  }
  return [...lines].sort()
}

/** The same mutant in another run of the same code: its place and what it puts there. */
const identity = (file: string, m: StrykerMutant) => `${file}:${m.location.start.line}:${m.location.start.column}:${m.mutatorName}:${m.replacement ?? ""}`

/** The first report with each Timeout replaced by the second run's status for the same mutant. */
export const applyRecheck = (
  first: StrykerReport,
  second: StrykerReport,
  timeoutMs: number
): { readonly report: StrykerReport; readonly recheck: TimeoutRecheck } => {
  const statusIn = new Map<string, string>()
  for (const [file, { mutants }] of Object.entries(second.files)) for (const m of mutants) statusIn.set(identity(file, m), m.status)
  let rerun = 0
  let stillTimedOut = 0
  const became: Record<string, number> = {}
  const files = Object.fromEntries(
    Object.entries(first.files).map(([file, { mutants }]) => [
      file,
      {
        mutants: mutants.map((m) => {
          if (m.status !== "Timeout") return m
          const again = statusIn.get(identity(file, m))
          if (again === undefined) return m
          rerun++
          if (again === "Timeout") stillTimedOut++
          else became[again] = (became[again] ?? 0) + 1
          return { ...m, status: again }
        })
      }
    ])
  )
  return { report: { ...first, files }, recheck: { timeoutMs, rerun, stillTimedOut, became } }
}
