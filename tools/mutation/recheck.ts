/**
 * Two statuses a first Stryker run can get wrong, each settled by running those mutants again:
 *
 * - **Timeout** counts as detected, but on a loaded 2-core machine a mutant that would have passed
 *   can run out of time (a run beside a live comparison and other Stryker runs reported 17 of 188
 *   mutants Timeout; alone, 14 of them passed). They run again alone, one runner, a longer timeout:
 *   a genuine hang (a loop that no longer ends) times out again, a slow pass becomes Survived.
 * - **Survived** under per-test coverage means "the tests that ran this code passed", and only
 *   those tests ran. The suite shares one process (`isolate: false`) and the emulator runs work in
 *   background fibers (stream writers, the job ticker), so code can run while another test is
 *   current, and the test that would notice is never run. They run again against the whole suite
 *   (`coverageAnalysis: "all"`): a survivor the whole suite kills was missed by the coverage map.
 *
 * Each mutant then takes the second run's status, matched by place and replacement; a survivor
 * only when the whole suite killed it (a Timeout there, on a loaded machine, proves nothing).
 */
import type { StrykerMutant, StrykerReport } from "./mutationReport.js"

export type RecheckedStatus = "Timeout" | "Survived"

/** How a second run settled the first run's mutants of one status; part of the run's meta. */
export interface Recheck {
  readonly of: RecheckedStatus
  /** How the second run differed: e.g. "one runner, 60 s timeout", "the whole suite". */
  readonly how: string
  /** Mutants of that status found again in the second run. */
  readonly rerun: number
  /** Of those, how many kept the status (a survivor also when the second run timed out). */
  readonly unchanged: number
  /** The statuses the others took instead. */
  readonly became: Readonly<Record<string, number>>
  /** For each mutant that became Killed: its key and the tests that killed it, so a reviewer can check it. */
  readonly killed: ReadonlyArray<{ readonly key: string; readonly by: ReadonlyArray<string> }>
}

/**
 * The places of the mutants of the status, for HERMETIC_MUTATE: each mutant's own span
 * (`file:L:C-L:C`; Stryker counts those columns from 0, the report from 1), so the second run makes
 * those mutants and the ones nested inside them, not every mutant of their lines.
 */
export const placesOf = (report: StrykerReport, status: RecheckedStatus): ReadonlyArray<string> => {
  const places = new Set<string>()
  for (const [file, { mutants }] of Object.entries(report.files)) {
    for (const m of mutants) {
      if (m.status !== status) continue
      const { end, start } = m.location
      places.add(end === undefined ? `${file}:${start.line}-${start.line}` : `${file}:${start.line}:${start.column - 1}-${end.line}:${end.column - 1}`)
    }
  }
  return [...places].sort()
}

/** The same mutant in another run of the same code: its place and what it puts there. */
const identity = (file: string, m: StrykerMutant) => `${file}:${m.location.start.line}:${m.location.start.column}:${m.mutatorName}:${m.replacement ?? ""}`

/** Test names by id, from a report's `testFiles` (absent in reports that carry none). */
const testNames = (report: StrykerReport): ReadonlyMap<string, string> =>
  new Map(Object.values(report.testFiles ?? {}).flatMap((f) => f.tests.map((t) => [t.id, t.name] as const)))

/** Whether the second run's status settles a mutant the first run gave status `of`. */
const settles = (of: RecheckedStatus, again: string): boolean => (of === "Timeout" ? true : again === "Killed")

/** The first report with each mutant of `of` replaced by the second run's status for the same mutant. */
export const applyRecheck = (
  first: StrykerReport,
  second: StrykerReport,
  of: RecheckedStatus,
  how: string
): { readonly report: StrykerReport; readonly recheck: Recheck } => {
  const again = new Map<string, StrykerMutant>()
  for (const [file, { mutants }] of Object.entries(second.files)) for (const m of mutants) again.set(identity(file, m), m)
  const names = testNames(second)
  let rerun = 0
  let unchanged = 0
  const became: Record<string, number> = {}
  const killed: Array<{ key: string; by: ReadonlyArray<string> }> = []
  const files = Object.fromEntries(
    Object.entries(first.files).map(([file, { mutants }]) => [
      file,
      {
        mutants: mutants.map((m) => {
          if (m.status !== of) return m
          const second = again.get(identity(file, m))
          if (second === undefined) return m
          rerun++
          if (second.status === of || !settles(of, second.status)) {
            unchanged++
            return m
          }
          became[second.status] = (became[second.status] ?? 0) + 1
          if (second.status === "Killed") {
            killed.push({
              key: `${file}:${m.location.start.line}:${m.mutatorName}:${m.replacement ?? ""}`,
              by: (second.killedBy ?? []).map((id) => names.get(id) ?? id)
            })
          }
          return { ...m, status: second.status }
        })
      }
    ])
  )
  return { report: { ...first, files }, recheck: { of, how, rerun, unchanged, became, killed } }
}
