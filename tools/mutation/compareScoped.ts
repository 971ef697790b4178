/**
 * Before/after of a scoped Stryker run (HERMETIC_MUTATE narrowed to a few files): reads two
 * Stryker JSON reports of the same scope, one per suite, and writes per file the mutants detected
 * (Killed or Timeout) of those tested, with every status counted and the undetected mutants listed.
 * Ignored mutants (static ones under --ignoreStatic) are counted apart, outside the score.
 *
 *   node --import tsx tools/mutation/compareScoped.ts --before A.json --after B.json --out FILE.json
 */
import { readFileSync, writeFileSync } from "node:fs"
import { parseArgs } from "node:util"
import { DETECTED, type StrykerReport } from "./mutationReport.js"

const OUTSIDE = new Set(["Ignored", "CompileError", "RuntimeError"])

const perFile = (path: string) => {
  const report = JSON.parse(readFileSync(path, "utf8")) as StrykerReport
  return Object.fromEntries(
    Object.entries(report.files).map(([file, { mutants }]) => {
      const statuses: Record<string, number> = {}
      for (const m of mutants) statuses[m.status] = (statuses[m.status] ?? 0) + 1
      const scored = mutants.filter((m) => !OUTSIDE.has(m.status))
      const detected = scored.filter((m) => DETECTED.has(m.status)).length
      const undetected = scored.filter((m) => !DETECTED.has(m.status)).map((m) => `${m.location.start.line}:${m.mutatorName}:${m.replacement ?? ""}:${m.status}`)
      return [file, { detected, scored: scored.length, score: scored.length === 0 ? 0 : detected / scored.length, statuses, undetected }]
    })
  )
}

const { values } = parseArgs({ options: { before: { type: "string" }, after: { type: "string" }, out: { type: "string" } } })
if (values.before === undefined || values.after === undefined || values.out === undefined) {
  process.stderr.write("compareScoped: --before, --after and --out are required\n")
  process.exit(2)
}
const before = perFile(values.before)
const after = perFile(values.after)
const files = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()
writeFileSync(values.out, `${JSON.stringify({ files: Object.fromEntries(files.map((f) => [f, { before: before[f], after: after[f] }])) }, null, 2)}\n`)
for (const f of files) process.stdout.write(`${f}: ${before[f]?.detected ?? 0}/${before[f]?.scored ?? 0} → ${after[f]?.detected ?? 0}/${after[f]?.scored ?? 0}\n`)
