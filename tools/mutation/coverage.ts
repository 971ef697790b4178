/**
 * `npm run mutation:coverage`: which behaviour code the recorded evidence never runs. Runs the
 * suite of vitest.mutation.config.ts (the replays of what the real gateway answered) with V8
 * coverage restricted to the mutation scope (scope.ts: the same files as Stryker's `mutate`) and
 * writes, per file, the statements, lines and branches covered of total and the uncovered line
 * ranges, sorted by uncovered statements. A mutant on a line no recorded exchange runs is one
 * Stryker reports NoCoverage: this map says where to record next without a mutation run.
 *
 *   npm run mutation:coverage                     writes evidence/mutation/coverage/{summary.json,README.md}
 *   npm run mutation:coverage -- --out DIR        elsewhere (a before/after)
 *   npm run mutation:coverage -- --report-only    the evidence again from the last V8 report
 *   npm run mutation:coverage -- --before FILE    adds a before → after table against an earlier summary.json
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import { parseArgs } from "node:util"
import { BEHAVIOUR_ROOT, isBehaviourFile, NOT_BEHAVIOUR } from "./scope.js"

/** The parts of istanbul's coverage-final.json (what @vitest/coverage-v8 writes) read here. */
interface Position {
  readonly line: number
}
interface FileCoverage {
  readonly path: string
  readonly statementMap: Readonly<Record<string, { readonly start: Position; readonly end: Position }>>
  readonly s: Readonly<Record<string, number>>
  readonly branchMap: Readonly<Record<string, { readonly loc: { readonly start: Position } }>>
  readonly b: Readonly<Record<string, ReadonlyArray<number>>>
}

export interface CoveredOfTotal {
  readonly covered: number
  readonly total: number
}
export interface FileMap {
  readonly file: string
  readonly statements: CoveredOfTotal
  readonly lines: CoveredOfTotal
  readonly branches: CoveredOfTotal
  readonly uncoveredStatements: number
  /** `a-b` line ranges (inclusive) whose statements never ran. */
  readonly uncovered: ReadonlyArray<string>
  /** Uncovered statements in code outside-recordings.json places out of a recording's reach, by category. */
  readonly outside: Readonly<Record<string, number>>
}

/**
 * Code no recording of the recordable pin can run, with why (evidence/mutation/coverage/
 * outside-recordings.json): `pin-only` is what only 0.21.0 reaches (version/Pins.ts), `no-gateway`
 * is emulator machinery with no gateway counterpart, `socket` needs raw-socket evidence the
 * mutation suite does not replay (it replays the live fuzz run's, not the wire or upload runs'), `race`
 * is a window between two requests that a recording, which plays its requests one after another, cannot place,
 * `profile` is what only a toolset no recordable gateway profile enables reaches (the tools profile has terminal and todo). `lines` ("a-b,c") narrows an entry to part of a file; the line
 * numbers are those of the commit the list was written on.
 */
export interface OutsideEntry {
  readonly file: string
  readonly lines?: string
  readonly category: "pin-only" | "no-gateway" | "socket" | "race" | "profile"
  readonly reason: string
}

const inRanges = (line: number, ranges: string | undefined): boolean =>
  ranges === undefined ||
  ranges.split(",").some((r) => {
    const [a, b] = r.split("-").map(Number)
    return a !== undefined && line >= a && line <= (b ?? a)
  })

const REPORT_DIR = "reports/mutation/coverage"

/** Consecutive line numbers folded into `a-b` ranges. */
export const toRanges = (lines: ReadonlyArray<number>): Array<string> => {
  const sorted = [...new Set(lines)].sort((a, b) => a - b)
  const ranges: Array<string> = []
  let start = sorted[0]
  let prev = start
  for (const line of sorted.slice(1)) {
    if (prev !== undefined && line === prev + 1) {
      prev = line
      continue
    }
    if (start !== undefined && prev !== undefined) ranges.push(start === prev ? `${start}` : `${start}-${prev}`)
    start = line
    prev = line
  }
  if (start !== undefined && prev !== undefined) ranges.push(start === prev ? `${start}` : `${start}-${prev}`)
  return ranges
}

/**
 * One file's map. A line counts as covered when any statement starting on it ran (istanbul's line
 * rule); a line is listed uncovered when a statement that never ran spans it and no statement that
 * ran starts on it, so a multi-line call whose arguments never ran shows as the whole block.
 */
export const mapFile = (file: string, fc: FileCoverage, outsideEntries: ReadonlyArray<OutsideEntry> = []): FileMap => {
  const mine = outsideEntries.filter((e) => `${BEHAVIOUR_ROOT}/${e.file}` === file)
  const outside: Record<string, number> = {}
  const lineHits = new Map<number, number>()
  const ranLines = new Set<number>()
  const missedLines: Array<number> = []
  let covered = 0
  const ids = Object.keys(fc.statementMap)
  for (const id of ids) {
    const loc = fc.statementMap[id]
    if (loc === undefined) continue
    const hits = fc.s[id] ?? 0
    if (hits > 0) {
      covered++
      ranLines.add(loc.start.line)
    } else {
      for (let l = loc.start.line; l <= loc.end.line; l++) missedLines.push(l)
      const entry = mine.find((e) => inRanges(loc.start.line, e.lines))
      if (entry !== undefined) outside[entry.category] = (outside[entry.category] ?? 0) + 1
    }
    lineHits.set(loc.start.line, Math.max(lineHits.get(loc.start.line) ?? 0, hits))
  }
  const branchCounts = Object.values(fc.b).flat()
  return {
    file,
    statements: { covered, total: ids.length },
    lines: { covered: [...lineHits.values()].filter((h) => h > 0).length, total: lineHits.size },
    branches: { covered: branchCounts.filter((h) => h > 0).length, total: branchCounts.length },
    uncoveredStatements: ids.length - covered,
    uncovered: toRanges(missedLines.filter((l) => !ranLines.has(l))),
    outside
  }
}

const CATEGORY_NAMES: Record<OutsideEntry["category"], string> = {
  "pin-only": "only the 0.21.0 pin reaches it",
  "no-gateway": "emulator machinery with no gateway counterpart",
  socket: "needs raw-socket evidence the suite does not replay",
  race: "a window between two requests a sequential recording cannot place",
  profile: "only a toolset no recordable profile enables reaches it"
}

/** Uncovered statements by category over every file, and those left that a recording could reach. */
export const outsideTotals = (files: ReadonlyArray<FileMap>): Record<string, number> => {
  // every category of CATEGORY_NAMES, so a new one is counted without a second edit here
  const out: Record<string, number> = { ...Object.fromEntries(Object.keys(CATEGORY_NAMES).map((c) => [c, 0])), recordable: 0 }
  for (const f of files) {
    let outside = 0
    for (const [category, n] of Object.entries(f.outside)) {
      out[category] = (out[category] ?? 0) + n
      outside += n
    }
    out["recordable"] = (out["recordable"] ?? 0) + f.uncoveredStatements - outside
  }
  return out
}

const sum = (files: ReadonlyArray<FileMap>, pick: (f: FileMap) => CoveredOfTotal): CoveredOfTotal =>
  files.reduce((acc, f) => ({ covered: acc.covered + pick(f).covered, total: acc.total + pick(f).total }), { covered: 0, total: 0 })

const pct = ({ covered, total }: CoveredOfTotal) => (total === 0 ? "—" : `${((100 * covered) / total).toFixed(1)} %`)

interface Summary {
  readonly commit: string
  readonly totals: Record<string, CoveredOfTotal>
  readonly byFile: ReadonlyArray<FileMap>
}

/** Totals and the files whose uncovered statements changed, against an earlier map. */
const comparison = (before: Summary, files: ReadonlyArray<FileMap>, totals: Record<string, CoveredOfTotal>): string => {
  const earlier = new Map(before.byFile.map((f) => [f.file, f]))
  const row = (name: string) => {
    const b = before.totals[name] as CoveredOfTotal
    const a = totals[name] as CoveredOfTotal
    return `| ${name} | ${b.covered}/${b.total} (${pct(b)}) | ${a.covered}/${a.total} (${pct(a)}) |`
  }
  const changed = files
    .map((f) => ({ f, was: earlier.get(f.file)?.uncoveredStatements }))
    .filter(({ f, was }) => was !== undefined && was !== f.uncoveredStatements)
    .sort((x, y) => (x.f.uncoveredStatements - (x.was ?? 0)) - (y.f.uncoveredStatements - (y.was ?? 0)))
    .map(({ f, was }) => `| \`${f.file.slice(BEHAVIOUR_ROOT.length + 1)}\` | ${was} | ${f.uncoveredStatements} |`)
  return `
## Before → after

Against the map on ${before.commit} (\`--before\`):

| over the scope | before | after |
| --- | ---: | ---: |
${["statements", "lines", "branches"].map(row).join("\n")}

Files whose uncovered statements changed:

| file | uncovered before | after |
| --- | ---: | ---: |
${changed.join("\n")}
`
}

const outsideCell = (f: FileMap): string =>
  Object.entries(f.outside).map(([category, n]) => `${n} ${category}`).join(", ")

const readme = (files: ReadonlyArray<FileMap>, totals: Record<string, CoveredOfTotal>, commit: string) => {
  const rows = files
    .filter((f) => f.uncoveredStatements > 0)
    .slice(0, 40)
    .map((f) => `| \`${f.file.slice(BEHAVIOUR_ROOT.length + 1)}\` | ${f.uncoveredStatements} | ${outsideCell(f)} | ${f.lines.covered}/${f.lines.total} | ${f.branches.covered}/${f.branches.total} | ${f.uncovered.slice(0, 6).join(", ")}${f.uncovered.length > 6 ? ", …" : ""} |`)
  const split = outsideTotals(files)
  const s = totals["statements"] as CoveredOfTotal
  const l = totals["lines"] as CoveredOfTotal
  const b = totals["branches"] as CoveredOfTotal
  return `# What the recorded evidence never runs

V8 coverage of the emulator's behaviour code (the mutation scope, \`tools/mutation/scope.ts\`) under
the suite that judges it in the mutation score (\`vitest.mutation.config.ts\`: the cassettes of
\`fixtures/0.19.0/\` replayed in process and over node:http, chat-vs-live, responses-live-parity, the live fuzz run's raw requests),
written by \`npm run mutation:coverage\` (\`tools/mutation/coverage.ts\`) on ${commit}. A mutant on a
line listed here is one Stryker reports *NoCoverage*: no recorded exchange runs it.

Over ${files.length} files: statements **${s.covered}/${s.total}** (${pct(s)}), lines **${l.covered}/${l.total}**
(${pct(l)}), branches **${b.covered}/${b.total}** (${pct(b)}). Lines are istanbul's: a line where a statement
starts. \`summary.json\` has every file and every uncovered range.

The ${s.total - s.covered} uncovered statements, by whether a recording of 0.19.0 could run them
(\`outside-recordings.json\` lists the code out of reach, each entry with why):

| uncovered statements | count |
| --- | ---: |
${Object.entries(CATEGORY_NAMES).map(([category, name]) => `| ${category}: ${name} | ${split[category] ?? 0} |`).join("\n")}
| recordable: a live 0.19.0 scenario could reach it | ${split["recordable"] ?? 0} |

The ${rows.length} files with the most uncovered statements (ranges: the first six):

| file | uncovered statements | of them out of reach | lines covered | branches covered | uncovered lines |
| --- | ---: | --- | ---: | ---: | --- |
${rows.join("\n")}
`
}

const { values } = parseArgs({
  options: {
    out: { type: "string", default: "evidence/mutation/coverage" },
    before: { type: "string" },
    outside: { type: "string", default: "evidence/mutation/coverage/outside-recordings.json" },
    "report-only": { type: "boolean", default: false }
  }
})
const root = process.cwd()
if (values["report-only"] !== true) {
  // the same scope as Stryker's `mutate`: every source file, then each part scope.ts leaves out
  // (filtered again below with isBehaviourFile, so a glob slip cannot widen or narrow it)
  const scopeArgs = [
    `--coverage.include=${BEHAVIOUR_ROOT}/**/*.ts`,
    `--coverage.exclude=${BEHAVIOUR_ROOT}/index.ts`,
    ...NOT_BEHAVIOUR.map((part) => `--coverage.exclude=${part.endsWith("/") ? `${BEHAVIOUR_ROOT}/**${part}**` : `${BEHAVIOUR_ROOT}/**${part}`}`)
  ]
  const vitest = spawnSync(
    "npx",
    ["vitest", "run", "--root", root, "--config", "vitest.mutation.config.ts", "--coverage.enabled", "--coverage.provider=v8", "--coverage.all", "--coverage.experimentalAstAwareRemapping", "--coverage.reporter=json", `--coverage.reportsDirectory=${REPORT_DIR}`, ...scopeArgs],
    { stdio: "inherit" }
  )
  if (vitest.status !== 0) {
    process.stderr.write(`mutation:coverage: the recorded-evidence suite exited ${vitest.status ?? vitest.signal}: no map written\n`)
    process.exit(2)
  }
}
const reportPath = join(REPORT_DIR, "coverage-final.json")
if (!existsSync(reportPath)) {
  process.stderr.write(`mutation:coverage: ${reportPath} is missing (run without --report-only first)\n`)
  process.exit(2)
}
const report = JSON.parse(readFileSync(reportPath, "utf8")) as Record<string, FileCoverage>
const outsideEntries = existsSync(values.outside) ? (JSON.parse(readFileSync(values.outside, "utf8")) as { entries: ReadonlyArray<OutsideEntry> }).entries : []
const files = Object.values(report)
  .map((fc) => ({ rel: relative(root, fc.path), fc }))
  .filter(({ rel }) => isBehaviourFile(rel))
  .map(({ rel, fc }) => mapFile(rel, fc, outsideEntries))
  .sort((a, b) => b.uncoveredStatements - a.uncoveredStatements || a.file.localeCompare(b.file))
const totals = { statements: sum(files, (f) => f.statements), lines: sum(files, (f) => f.lines), branches: sum(files, (f) => f.branches) }
const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).stdout.trim()
mkdirSync(values.out, { recursive: true })
writeFileSync(join(values.out, "summary.json"), `${JSON.stringify({ commit, suite: "vitest.mutation.config.ts", scope: "tools/mutation/scope.ts", files: files.length, totals, uncoveredStatements: outsideTotals(files), byFile: files }, null, 2)}\n`)
const before = values.before === undefined ? undefined : (JSON.parse(readFileSync(values.before, "utf8")) as Summary)
writeFileSync(join(values.out, "README.md"), readme(files, totals, commit) + (before === undefined ? "" : comparison(before, files, totals)))
const split = outsideTotals(files)
process.stdout.write(`mutation:coverage: ${files.length} files; statements ${totals.statements.covered}/${totals.statements.total}, lines ${totals.lines.covered}/${totals.lines.total}, branches ${totals.branches.covered}/${totals.branches.total}; uncovered statements ${JSON.stringify(split)} → ${values.out}\n`)
