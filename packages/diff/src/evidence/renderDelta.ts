/**
 * `oracle report --base OLD.json --head NEW.json`: what a change did to fidelity, as Markdown for
 * a pull-request comment — divergences that are new and those fixed, scenarios whose verdict
 * changed, coverage cells gained and lost, and the speed of both sides.
 */
import type { ClassifiedDifference, Evidence } from "./Evidence.js"

export interface Delta {
  readonly markdown: string
  readonly newDivergences: number
  readonly fixedDivergences: number
}

type Located = { readonly scenario: string; readonly d: ClassifiedDifference }

const divergencesOf = (e: Evidence): Map<string, Located> => {
  const map = new Map<string, Located>()
  for (const s of e.scenarios) {
    for (const d of [...s.steps.flatMap((st) => st.differences), ...s.differences]) {
      if (d.classification !== "divergence") continue
      map.set(`${s.name}\u0000${d.step}\u0000${d.exchange}\u0000${d.operation}\u0000${d.kind}\u0000${d.path}`, { scenario: s.name, d })
    }
  }
  return map
}

type CellState = "verified" | "emulator-only" | "real-only"

/** operation × status → what the evidence showed for it. */
export const coverageCells = (e: Evidence): Map<string, CellState> => {
  const map = new Map<string, CellState>()
  for (const row of e.coverage) {
    for (const c of row.statuses) map.set(`${row.operation} ${c.status}`, c.verified ? "verified" : c.exercised ? "emulator-only" : "real-only")
  }
  return map
}

const code = (v: unknown) => {
  const text = JSON.stringify(v) ?? "—"
  return `\`${(text.length > 80 ? `${text.slice(0, 77)}…` : text).replace(/`/g, "'").replace(/\|/g, "\\|")}\``
}

const row = ({ scenario, d }: Located) => `| ${scenario.replace(/\|/g, "\\|")} | ${d.step} | ${d.operation} | ${d.kind} | \`${d.path.replace(/\|/g, "\\|")}\` | ${code(d.expected)} | ${code(d.actual)} |`

const change = (before: number | undefined, after: number | undefined) => {
  if (before === undefined || after === undefined) return `${before ?? "—"} → ${after ?? "—"}`
  const ratio = before === 0 ? "" : ` (${after >= before ? "+" : ""}${Math.round(((after - before) / before) * 100)} %)`
  return `${before} → ${after}${ratio}`
}

export const renderDelta = (base: Evidence, head: Evidence): Delta => {
  const before = divergencesOf(base)
  const after = divergencesOf(head)
  const added = [...after].filter(([k]) => !before.has(k)).map(([, v]) => v)
  const fixed = [...before].filter(([k]) => !after.has(k)).map(([, v]) => v)
  const verdictBase = new Map(base.scenarios.map((s) => [s.name, s.verdict]))
  const verdictChanges = head.scenarios.filter((s) => verdictBase.has(s.name) && verdictBase.get(s.name) !== s.verdict)
  const onlyHead = head.scenarios.filter((s) => !verdictBase.has(s.name)).length
  const onlyBase = base.scenarios.filter((s) => !head.scenarios.some((h) => h.name === s.name)).length
  const cb = coverageCells(base)
  const ch = coverageCells(head)
  const gained = [...ch].filter(([k, v]) => v === "verified" && cb.get(k) !== "verified").map(([k]) => k)
  const lost = [...cb].filter(([k, v]) => v === "verified" && ch.get(k) !== "verified").map(([k]) => k)
  const newlyExercised = [...ch.keys()].filter((k) => !cb.has(k))
  const noLonger = [...cb.keys()].filter((k) => !ch.has(k))

  const lines: Array<string> = []
  const mark = added.length > 0 ? "❌" : "✅"
  lines.push(`## ${mark} hermetic: ${added.length} new divergence(s), ${fixed.length} fixed — Hermes ${head.provenance.pin}`, "")
  lines.push(
    `base \`${base.provenance.emulatorCommit.slice(0, 12)}\` (${base.summary.scenarios} scenarios, ${base.summary.divergent} divergent) → ` +
      `head \`${head.provenance.emulatorCommit.slice(0, 12)}\` (${head.summary.scenarios} scenarios, ${head.summary.divergent} divergent)` +
      (onlyHead + onlyBase > 0 ? ` · ${onlyHead} scenario(s) only in head, ${onlyBase} only in base` : ""),
    ""
  )
  lines.push("### New divergences", "")
  if (added.length === 0) lines.push("None.")
  else lines.push("| scenario | step | operation | kind | path | real gateway | emulator |", "| --- | ---: | --- | --- | --- | --- | --- |", ...added.map(row))
  lines.push("", "### Fixed divergences", "")
  if (fixed.length === 0) lines.push("None.")
  else lines.push("| scenario | step | operation | kind | path | real gateway | emulator (base) |", "| --- | ---: | --- | --- | --- | --- | --- |", ...fixed.map(row))
  if (verdictChanges.length > 0) {
    lines.push("", "### Verdicts that changed", "", "| scenario | base | head |", "| --- | --- | --- |")
    for (const s of verdictChanges) lines.push(`| ${s.name} | ${verdictBase.get(s.name) ?? ""} | ${s.verdict}${s.error !== undefined ? ` (${s.error.slice(0, 80)})` : ""} |`)
  }
  lines.push("", "### Coverage (operation × status)", "")
  lines.push(`- verified against the real gateway: ${[...cb.values()].filter((v) => v === "verified").length} → ${[...ch.values()].filter((v) => v === "verified").length} cells`)
  lines.push(`- gained verified: ${gained.length === 0 ? "none" : gained.map((k) => `\`${k}\``).join(", ")}`)
  lines.push(`- lost verified: ${lost.length === 0 ? "none" : lost.map((k) => `\`${k}\``).join(", ")}`)
  if (newlyExercised.length > 0) lines.push(`- newly exercised: ${newlyExercised.map((k) => `\`${k}\``).join(", ")}`)
  if (noLonger.length > 0) lines.push(`- no longer exercised: ${noLonger.map((k) => `\`${k}\``).join(", ")}`)
  lines.push("", "### Speed", "", "| measure | base → head |", "| --- | --- |")
  lines.push(`| reference scenarios/s (one worker's pace) | ${change(base.summary.scenariosPerSecond.reference, head.summary.scenariosPerSecond.reference)} |`)
  lines.push(`| emulator scenarios/s | ${change(base.summary.scenariosPerSecond.candidate, head.summary.scenariosPerSecond.candidate)} |`)
  lines.push(`| scenarios/s wall clock (all workers) | ${change(base.summary.throughput, head.summary.throughput)} |`)
  lines.push(`| wall seconds | ${change(base.summary.wallSeconds, head.summary.wallSeconds)} |`)
  lines.push(`| workers | ${base.provenance.workers ?? 1} → ${head.provenance.workers ?? 1} |`, "")
  return { markdown: `${lines.join("\n")}\n`, newDivergences: added.length, fixedDivergences: fixed.length }
}
