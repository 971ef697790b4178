/**
 * The summary table printed at the end of compare and replay. Scenario names are never cut (two
 * names sharing a long prefix must stay distinguishable): the name is the last column, so a long
 * one only makes its own line longer.
 */
import type { Evidence } from "../evidence/Evidence.js"

const pad = (s: string, n: number) => (s.length >= n ? s : s + " ".repeat(n - s.length))

export const summaryTable = (e: Evidence): string => {
  const rows = e.scenarios.map((s) => {
    const ds = [...s.steps.flatMap((st) => st.differences), ...s.differences]
    return [s.verdict, String(s.steps.length), String(ds.filter((d) => d.classification === "divergence").length), String(ds.filter((d) => d.classification !== "divergence").length), s.name]
  })
  const head = ["verdict", "steps", "divergences", "tolerated", "scenario"]
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)))
  const last = head.length - 1
  const line = (cells: ReadonlyArray<string>) => cells.map((c, i) => (i === last ? c : pad(c, widths[i] ?? 0))).join("  ").trimEnd()
  const s = e.summary
  return [
    line(head),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map(line),
    "",
    `${s.scenarios} scenarios: ${s.equal} equal, ${s.tolerated} tolerated, ${s.divergent} divergent, ${s.errors} errors · ${s.steps} steps, ${s.exchanges} exchanges · ` +
      `${s.differences.divergence} divergences, ${s.differences.registered} registered, ${s.differences.noise} noise · ` +
      `scenarios/s: reference ${s.scenariosPerSecond.reference}, emulator ${s.scenariosPerSecond.candidate}`,
    ""
  ].join("\n")
}
