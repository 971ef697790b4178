/**
 * REPORT.md from the Evidence, for a reviewer reading a pull request: the summary table first,
 * then every divergence, then what was tolerated and why, then coverage, rules and provenance.
 */
import type { ClassifiedDifference, Evidence } from "./Evidence.js"
import { countTimeMechanisms, renderTimeMechanisms } from "./timeMechanisms.js"

const VERDICT_MARK: Record<string, string> = { equal: "✅ equal", tolerated: "🟡 tolerated", divergent: "❌ divergent", error: "⛔ error" }

const cellText = (v: unknown): string => {
  if (v === undefined) return "—"
  const text = typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v)
  const short = text.length > 120 ? `${text.slice(0, 117)}…` : text
  return `\`${short.replace(/`/g, "'").replace(/\|/g, "\\|")}\``
}

type When = Evidence["register"][number]["when"]

/** A register entry's answer conditions, after its path: ` when reference HTTP/1.0 400 *, candidate 400`. */
const whenText = (when: When): string => {
  const side = (name: string, c: NonNullable<NonNullable<When>["reference"]> | undefined) =>
    c === undefined ? [] : [`${name} ${[...(c.statusLine !== undefined ? [`\`${c.statusLine}\``] : []), ...(c.status !== undefined ? [c.status.join("/")] : [])].join(" ")}`]
  const parts = when === undefined ? [] : [...side("reference", when.reference), ...side("candidate", when.candidate)]
  return parts.length === 0 ? "" : ` when ${parts.join(", ")}`
}

/** A scenario name as a table cell (a fuzz case's label lists its headers between `|`). */
const nameCell = (name: string) => name.replace(/\|/g, "\\|")

const differenceRow = (scenario: string, d: ClassifiedDifference) =>
  `| ${nameCell(scenario)} | ${d.step < 0 ? "—" : d.step} | ${d.operation} | ${d.kind} | \`${d.path.replace(/\|/g, "\\|")}\` | ${cellText(d.expected)} | ${cellText(d.actual)} |`

/** `pictures`: Markdown showing the report's pictures (written next to it), placed before the summary table. */
export const renderReport = (e: Evidence, pictures?: string): string => {
  const p = e.provenance
  const s = e.summary
  const lines: Array<string> = []
  const overall = s.errors > 0 || s.scenarios === 0 ? "⛔ the oracle could not run every scenario" : s.divergent > 0 ? "❌ divergences found" : "✅ no divergence"
  lines.push(`# hermetic comparison — Hermes ${p.pin}`, "")
  lines.push(`**${overall}** · reference: ${p.reference.description} · candidate: ${p.candidate.description}`, "")
  lines.push(
    `${s.scenarios} scenarios (${s.equal} equal, ${s.tolerated} tolerated, ${s.divergent} divergent, ${s.errors} errors) · ${s.steps} steps · ${s.exchanges} exchanges · ` +
      `differences: ${s.differences.divergence} divergences, ${s.differences.registered} registered, ${s.differences.noise} noise · ` +
      `scenarios/s: reference ${s.scenariosPerSecond.reference}, candidate ${s.scenariosPerSecond.candidate}`,
    ""
  )
  if (s.wallSeconds !== undefined) {
    lines.push(`Wall clock: ${s.wallSeconds} s on ${p.workers ?? 1} worker(s) · ${s.throughput ?? 0} scenarios/s${p.mergedFrom !== undefined ? ` · merged from ${p.mergedFrom.length} shards (the slowest shard's time)` : ""}${p.shard !== undefined ? ` · shard ${p.shard.index}/${p.shard.count}` : ""}`, "")
  }
  if (pictures !== undefined) lines.push(pictures, "")
  lines.push("## Summary", "", "| scenario | verdict | steps | divergences | tolerated | reference ms | candidate ms |", "| --- | --- | ---: | ---: | ---: | ---: | ---: |")
  for (const sc of e.scenarios) {
    const ds = [...sc.steps.flatMap((st) => st.differences), ...sc.differences]
    lines.push(
      `| ${nameCell(sc.name)} | ${VERDICT_MARK[sc.verdict] ?? sc.verdict} | ${sc.steps.length} | ${ds.filter((d) => d.classification === "divergence").length} | ${ds.filter((d) => d.classification !== "divergence").length} | ${sc.durationMs.reference} | ${sc.durationMs.candidate} |`
    )
  }
  const errors = e.scenarios.filter((sc) => sc.error !== undefined)
  if (errors.length > 0) {
    lines.push("", "## Could not run", "")
    for (const sc of errors) lines.push(`- **${sc.name}**: ${sc.error ?? ""}`)
  }
  lines.push("", ...renderTimeMechanisms(countTimeMechanisms(e.scenarios, Date.parse(p.startedAt) / 1000)))
  const header = ["| scenario | step | operation | kind | path | real gateway (expected) | emulator (actual) |", "| --- | ---: | --- | --- | --- | --- | --- |"]
  lines.push("", "## Divergences", "")
  const divergences = e.scenarios.flatMap((sc) => [...sc.steps.flatMap((st) => st.differences), ...sc.differences].filter((d) => d.classification === "divergence").map((d) => differenceRow(sc.name, d)))
  if (divergences.length === 0) lines.push("None.")
  else lines.push(...header, ...divergences)
  lines.push("", "## Tolerated differences", "")
  const tolerated = e.scenarios.flatMap((sc) => [...sc.steps.flatMap((st) => st.differences), ...sc.differences].filter((d) => d.classification !== "divergence").map((d) => ({ sc: sc.name, d })))
  if (tolerated.length === 0) lines.push("None.")
  else {
    lines.push("| scenario | step | operation | kind | path | why tolerated |", "| --- | ---: | --- | --- | --- | --- |")
    for (const { sc, d } of tolerated) lines.push(`| ${nameCell(sc)} | ${d.step} | ${d.operation} | ${d.kind} | \`${d.path}\` | ${d.classification}: ${(d.reason ?? "").replace(/\|/g, "\\|")} |`)
  }
  lines.push("", "### Divergence register", "")
  if (e.register.length === 0) lines.push("Empty: no difference is tolerated by registration.")
  else {
    lines.push("| id | operation | kind | path | category | hits | reason |", "| --- | --- | --- | --- | --- | ---: | --- |")
    for (const r of e.register) lines.push(`| ${r.id} | ${r.operation} | ${r.kind ?? "*"} | \`${r.path}\`${whenText(r.when)} | ${r.category} | ${r.hits} | ${r.reason} |`)
  }
  lines.push("", "### Learned noise", "", `Method: ${e.noise.method}.`, "")
  if (e.noise.observations.length > 0) {
    lines.push("| scenario | step | signature | example (run 1 → run 2) |", "| --- | ---: | --- | --- |")
    for (const o of e.noise.observations) lines.push(`| ${o.scenario} | ${o.step} | \`${o.signature}\` | ${cellText(o.example.expected)} → ${cellText(o.example.actual)} |`)
  }
  lines.push("", "## Coverage", "", "Per operation and HTTP status: **E** the emulator answered it here, **V** verified — the real gateway answered it too, with no divergence in that exchange, **R** seen on the real gateway only.", "")
  lines.push("| operation | method | path | implemented | statuses |", "| --- | --- | --- | :---: | --- |")
  for (const row of e.coverage) {
    const statuses = row.statuses.map((c) => `${c.status} ${[c.exercised ? "E" : "", c.verified ? "V" : "", c.seenOnReal && !c.verified ? "R" : ""].join("")}`).join(", ")
    lines.push(`| ${row.operation} | ${row.method} | \`${row.path}\` | ${row.implemented ? "yes" : "no"} | ${statuses === "" ? "not exercised" : statuses} |`)
  }
  lines.push("", "## Normalization rules", "", `Clock: ${e.normalization.clock === "pinned" ? "pinned on both sides — timestamps compared exactly" : "running — timestamps compared as relations"}.`, "")
  lines.push("| rule | action | fired (reference / candidate) | applies to | reason |", "| --- | --- | --- | --- | --- |")
  for (const r of e.normalization.rules) lines.push(`| ${r.id} | ${r.action} | ${r.fired.reference} / ${r.fired.candidate} | ${r.applies.replace(/\|/g, "\\|")} | ${r.reason} |`)
  lines.push("", "## Provenance", "")
  lines.push(`- pin: ${p.pin}; launcher: ${p.launcher ?? "—"}; runs: ${p.runs}${p.seed !== undefined ? `; seed: ${p.seed}` : ""}`)
  lines.push(`- emulator commit: ${p.emulatorCommit}${p.emulatorDirty ? " (with uncommitted changes in packages/emulator)" : ""}; node ${p.node}`)
  if (p.installed !== undefined) lines.push(`- installed: ${Object.entries(p.installed).map(([k, v]) => `${k} ${v}`).join(", ")}`)
  lines.push(`- command: \`${p.command}\``, `- time: ${p.startedAt} → ${p.finishedAt}`)
  for (const m of p.mergedFrom ?? []) lines.push(`- shard ${m.shard.index}/${m.shard.count}: \`${m.command}\`, ${m.startedAt} → ${m.finishedAt}, ${m.wallSeconds} s`)
  lines.push("")
  return `${lines.join("\n")}\n`
}
