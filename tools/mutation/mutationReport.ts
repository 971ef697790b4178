/**
 * Turns StrykerJS's JSON report (reports/mutation/mutation.json, the mutation-testing-report-schema)
 * into the evidence a reviewer reads: the score, the counts by status and by file, every surviving
 * mutant with its place and replacement, which survivors are listed as equivalent (and why) in
 * evidence/mutation/equivalent-mutants.json, and which sit in code only another pin reaches
 * (evidence/mutation/pin-only-mutants.json by key, or a `pin-only` region of
 * evidence/mutation/coverage/outside-recordings.json: no recording of the recordable pin can judge them). Writes evidence/mutation/summary.json and the
 * `mutation` section of evidence/REPORT.md. For a run on a sample (what sampleLines.ts drew) the
 * score is labelled an estimate, with a 95 % Wilson interval (mutants of one line are not
 * independent draws, so the interval is a little optimistic).
 * run.ts calls it after StrykerJS.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import { replaceReportSection } from "../../packages/diff/src/evidence/reportSection.js"
import type { Recheck } from "./recheck.js"

export interface StrykerMutant {
  readonly id: string
  readonly mutatorName: string
  readonly replacement?: string
  readonly status: string
  /** For an Ignored mutant, why: the reason of the `// Stryker disable` comment over its line. */
  readonly statusReason?: string
  /** Lines and columns from 1, as the report schema counts them. */
  readonly location: { readonly start: { readonly line: number; readonly column: number }; readonly end?: { readonly line: number; readonly column: number } }
  /** The ids of the tests that killed it (a Killed mutant). */
  readonly killedBy?: ReadonlyArray<string>
}
export interface StrykerReport {
  readonly files: Readonly<Record<string, { readonly mutants: ReadonlyArray<StrykerMutant> }>>
  readonly testFiles?: Readonly<Record<string, { readonly tests: ReadonlyArray<{ readonly id: string; readonly name: string }> }>>
}

/** A survivor's key in the equivalents list: where it is and what it changes. */
const keyOf = (file: string, m: StrykerMutant) => `${file}:${m.location.start.line}:${m.mutatorName}:${m.replacement ?? ""}`

export const DETECTED = new Set(["Killed", "Timeout"])
const UNDETECTED = new Set(["Survived", "NoCoverage"])

/** The 95 % Wilson score interval of k successes in n. */
export const wilson = (k: number, n: number): readonly [number, number] => {
  if (n === 0) return [0, 1]
  const z = 1.96
  const p = k / n
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n)
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))
  return [Math.max(0, centre - half), Math.min(1, centre + half)]
}

export interface MutationSummary {
  readonly measuredAt: string
  readonly commit: string
  readonly loadAverage: number
  /** The run's timeouts and survivors run again, and what they became (recheck.ts); absent when not run. */
  readonly rechecks?: ReadonlyArray<Recheck>
  /**
   * The lines mutated, when not the whole scope: drawn at random with `seed`, or (`carriedFrom`) an
   * earlier draw's lines carried onto this commit's code, to see what work on them changed.
   */
  readonly sample:
    | { readonly lines: number; readonly seed: number; readonly codeLines: number; readonly carriedFrom?: string }
    | undefined
  readonly counts: Readonly<Record<string, number>>
  readonly score: number
  readonly scoreWithoutEquivalents: number
  readonly interval95: readonly [number, number] | undefined
  readonly byFile: ReadonlyArray<{ readonly file: string; readonly detected: number; readonly undetected: number }>
  /** Detected over the mutants a recording of the recordable pin can judge: equivalents and pin-only mutants left out. */
  readonly scoreOverReachable: number
  /**
   * Detected over the mutants a recording could judge at all: also left out, the survivors in code
   * the coverage map places out of a recording's reach (emulator machinery with no gateway
   * counterpart, socket-level code the suite replays no evidence for). Absent in older summaries.
   */
  readonly scoreOverRecordable?: number
  readonly survivors: ReadonlyArray<Survivor>
  /** Mutants a `// Stryker disable` comment in the code leaves out of the score, counted by the comment's reason. */
  readonly ignored: ReadonlyArray<{ readonly reason: string; readonly mutants: number }>
}

export interface Survivor {
  readonly key: string
  readonly status: string
  readonly equivalent: string | undefined
  readonly pinOnly?: string
  /** `<category>: <reason>` of the coverage map's region it sits in (no-gateway, socket, race, profile). */
  readonly outOfReach?: string
}

/** Survivors that cannot change behaviour, and survivors in code only another pin reaches, each with its reason. */
export interface SurvivorLists {
  readonly equivalents: Readonly<Record<string, string>>
  readonly pinOnly: Readonly<Record<string, string>>
  /**
   * Code only another pin reaches, as evidence/mutation/coverage/outside-recordings.json's
   * `pin-only` entries place it (a file under packages/emulator/src, optionally its line ranges):
   * a survivor there is pin-only without a key of its own in pin-only-mutants.json.
   */
  readonly pinOnlyRegions?: ReadonlyArray<PinOnlyRegion>
  /** The map's `no-gateway` and `socket` entries: a survivor there is out of a recording's reach. */
  readonly outOfReachRegions?: ReadonlyArray<PinOnlyRegion & { readonly category: string }>
}

export interface PinOnlyRegion {
  readonly file: string
  /** "12-20,31": the lines of the map's commit; the whole file when absent. */
  readonly lines?: string
  readonly reason: string
}

const inRegion = (region: PinOnlyRegion, file: string, line: number): boolean =>
  file === `packages/emulator/src/${region.file}` &&
  (region.lines === undefined ||
    region.lines.split(",").some((range) => {
      const [from, to] = range.split("-").map(Number)
      return from !== undefined && line >= from && line <= (to ?? from)
    }))

export const summarize = (
  report: StrykerReport,
  lists: SurvivorLists,
  meta: Pick<MutationSummary, "measuredAt" | "commit" | "loadAverage" | "sample" | "rechecks">
): MutationSummary => {
  const counts: Record<string, number> = {}
  const byFile: Array<{ file: string; detected: number; undetected: number }> = []
  const survivors: Array<Survivor> = []
  const ignored = new Map<string, number>()
  for (const [file, { mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
    let detected = 0
    let undetected = 0
    for (const m of mutants) {
      counts[m.status] = (counts[m.status] ?? 0) + 1
      if (DETECTED.has(m.status)) detected++
      if (m.status === "Ignored") {
        const reason = m.statusReason ?? "no reason given"
        ignored.set(reason, (ignored.get(reason) ?? 0) + 1)
      }
      if (UNDETECTED.has(m.status)) {
        undetected++
        const key = keyOf(file, m)
        const pinOnly = lists.pinOnly[key] ?? lists.pinOnlyRegions?.find((r) => inRegion(r, file, m.location.start.line))?.reason
        const region = pinOnly === undefined ? lists.outOfReachRegions?.find((r) => inRegion(r, file, m.location.start.line)) : undefined
        survivors.push({
          key,
          status: m.status,
          equivalent: lists.equivalents[key],
          ...(pinOnly !== undefined ? { pinOnly } : {}),
          ...(region !== undefined ? { outOfReach: `${region.category}: ${region.reason}` } : {})
        })
      }
    }
    if (detected + undetected > 0) byFile.push({ file, detected, undetected })
  }
  const detected = byFile.reduce((n, f) => n + f.detected, 0)
  const total = byFile.reduce((n, f) => n + f.detected + f.undetected, 0)
  const equivalent = survivors.filter((s) => s.equivalent !== undefined).length
  const pinOnly = survivors.filter((s) => s.equivalent === undefined && s.pinOnly !== undefined).length
  const outOfReach = survivors.filter((s) => s.equivalent === undefined && s.outOfReach !== undefined).length
  const recordable = total - equivalent - pinOnly - outOfReach
  return {
    ...meta,
    counts,
    score: total === 0 ? 0 : detected / total,
    scoreWithoutEquivalents: total - equivalent === 0 ? 0 : detected / (total - equivalent),
    scoreOverReachable: total - equivalent - pinOnly === 0 ? 0 : detected / (total - equivalent - pinOnly),
    scoreOverRecordable: recordable === 0 ? 0 : detected / recordable,
    interval95: meta.sample === undefined ? undefined : wilson(detected, total - equivalent),
    byFile,
    survivors,
    ignored: [...ignored].map(([reason, mutants]) => ({ reason, mutants }))
  }
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`
const statusCounts = (counts: Readonly<Record<string, number>>) => Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(" · ") || "none"

export const renderSection = (s: MutationSummary): string => {
  const detected = s.byFile.reduce((n, f) => n + f.detected, 0)
  const total = s.byFile.reduce((n, f) => n + f.detected + f.undetected, 0)
  const lines = [
    "## Mutation score: how many wrong emulators the recorded evidence catches",
    "",
    `Measured ${s.measuredAt} on ${s.commit.slice(0, 12)} (load average ${s.loadAverage.toFixed(1)}). StrykerJS mutated the emulator's behaviour code; the judge is only the suite that replays what the real gateway answered (vitest.mutation.config.ts: cassettes and recorded exchanges), never the emulator's own unit tests.`,
    "",
    s.sample === undefined
      ? `**Score: ${pct(s.score)}** — ${detected} of ${total} mutants detected; ${pct(s.scoreWithoutEquivalents)} without the listed equivalent mutants.`
      : s.sample.carriedFrom !== undefined
      ? `**Score on the lines of ${s.sample.carriedFrom}, carried onto this commit: ${pct(s.scoreWithoutEquivalents)}** (95 % interval ${pct(s.interval95?.[0] ?? 0)}–${pct(s.interval95?.[1] ?? 1)}): ${detected} of ${total} detected, ${s.survivors.filter((v) => v.equivalent !== undefined).length} listed as equivalent. Not an estimate of the scope: these lines were worked because that draw left them undetected.`
      : `**Estimated score: ${pct(s.scoreWithoutEquivalents)}** (95 % interval ${pct(s.interval95?.[0] ?? 0)}–${pct(s.interval95?.[1] ?? 1)}) from the mutants of ${s.sample.lines} lines drawn at random (seed ${s.sample.seed}) from ${s.sample.codeLines} code lines: ${detected} of ${total} detected, ${s.survivors.filter((v) => v.equivalent !== undefined).length} listed as equivalent. Target 85 %.`,
    "",
    `Over the mutants the recordable pin can judge (the ${s.survivors.filter((v) => v.equivalent === undefined && v.pinOnly !== undefined).length} survivors in code only another pin reaches left out, each listed with why): **${pct(s.scoreOverReachable)}**.`,
    "",
    ...(s.scoreOverRecordable === undefined
      ? []
      : [
        `Over the mutants a recording could judge at all (also left out: the ${s.survivors.filter((v) => v.equivalent === undefined && v.outOfReach !== undefined).length} survivors in code no 0.19.0 recording can reach: emulator machinery, socket-level code, races between requests, toolsets no recordable profile enables, as the coverage map's outside-recordings.json places them): **${pct(s.scoreOverRecordable)}**. The headline above counts them.`,
        ""
      ]),
    `Statuses: ${Object.entries(s.counts).map(([k, v]) => `${k} ${v}`).join(" · ")}`,
    "",
    ...(s.rechecks ?? []).flatMap((r) => [
      r.of === "Timeout"
        ? `Timeouts run again (${r.how}): ${r.unchanged} of ${r.rerun} timed out again and count as detected; the others took that run's status (${statusCounts(r.became)}).`
        : `Survivors run again (${r.how}): ${r.unchanged} of ${r.rerun} survived again; the others took that run's status (${statusCounts(r.became)}).${
          r.killed.length === 0 ? "" : ` Killed then, with the tests that killed them: ${r.killed.map((k) => `\`${k.key.replace("packages/emulator/src/", "")}\` by ${k.by.slice(0, 2).join("; ")}${k.by.length > 2 ? ` (+${k.by.length - 2})` : ""}`).join(" · ")}`
        }`,
      ""
    ]),
    ...(s.ignored.length === 0
      ? []
      : [
        "Ignored: left out of the score by a `// Stryker disable` comment on code no recording can judge, by the comment's reason:",
        "",
        ...s.ignored.map((i) => `- ${i.mutants} × ${i.reason}`),
        ""
      ]),
    "| file | detected | not detected |",
    "| --- | ---: | ---: |",
    ...s.byFile.map((f) => `| ${f.file.replace("packages/emulator/src/", "")} | ${f.detected} | ${f.undetected} |`),
    "",
    `Surviving mutants (${s.survivors.length}; file:line:mutator:replacement):`,
    "",
    ...s.survivors.map((v) => `- \`${v.key.replace("packages/emulator/src/", "")}\` ${v.status}${v.equivalent !== undefined ? ` — equivalent: ${v.equivalent}` : v.pinOnly !== undefined ? ` — only another pin reaches it: ${v.pinOnly}` : v.outOfReach !== undefined ? ` — out of a recording's reach (${v.outOfReach})` : ""}`)
  ]
  return lines.join("\n")
}

/** Writes evidence/mutation/summary.json and the REPORT.md section; returns the section's headline. */
/**
 * Only the mutants on the drawn lines (`file:N-N` ranges): StrykerJS's incremental report also
 * carries the results of lines an earlier run mutated, which are not part of this sample.
 */
export const onDrawnLines = (report: StrykerReport, ranges: ReadonlyArray<string>): StrykerReport => {
  const drawn = new Set(ranges.map((r) => r.replace(/-\d+$/, "")))
  return {
    files: Object.fromEntries(
      Object.entries(report.files).map(([file, { mutants }]) => [file, { mutants: mutants.filter((m) => drawn.has(`${file}:${m.location.start.line}`)) }])
    )
  }
}

/** When and where the Stryker run was measured; `--report-only` reads it back (RUN_META) instead of stamping its own moment. */
export type RunMeta = Pick<MutationSummary, "measuredAt" | "commit" | "loadAverage" | "rechecks">

export const RUN_META = "reports/mutation/run-meta.json"

export const measureRunMeta = (): RunMeta => ({
  measuredAt: new Date().toISOString(),
  commit: execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim(),
  loadAverage: loadavg()[0] ?? 0
})

export const writeMutationEvidence = (options: {
  readonly report: string
  readonly out: string
  readonly meta: RunMeta
  readonly sample: MutationSummary["sample"]
  /** The sample's `file:N-N` ranges, when the run mutated a sample. */
  readonly ranges?: ReadonlyArray<string>
}): string => {
  const full = JSON.parse(readFileSync(options.report, "utf8")) as StrykerReport
  const report = options.ranges === undefined ? full : onDrawnLines(full, options.ranges)
  const list = (name: string) => {
    const file = `${options.out}/${name}`
    return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, string>) : {}
  }
  const outside = `${options.out}/coverage/outside-recordings.json`
  const regions = existsSync(outside) ? (JSON.parse(readFileSync(outside, "utf8")) as { entries: ReadonlyArray<PinOnlyRegion & { category: string }> }).entries : []
  const pinOnlyRegions = regions.filter((e) => e.category === "pin-only")
  const outOfReachRegions = regions.filter((e) => e.category !== "pin-only")
  const summary = summarize(
    report,
    { equivalents: list("equivalent-mutants.json"), pinOnly: list("pin-only-mutants.json"), pinOnlyRegions, outOfReachRegions },
    { ...options.meta, sample: options.sample }
  )
  mkdirSync(options.out, { recursive: true })
  writeFileSync(`${options.out}/summary.json`, `${JSON.stringify(summary, null, 2)}\n`)
  const reportMd = "evidence/REPORT.md"
  const text = existsSync(reportMd) ? readFileSync(reportMd, "utf8") : ""
  writeFileSync(reportMd, replaceReportSection(text, "mutation", renderSection(summary)))
  return renderSection(summary).split("\n").slice(0, 5).join("\n")
}
