/** The summary table printed at the end of compare and replay. */
import type { Evidence } from "../evidence/Evidence.js"

const pad = (s: string, n: number) => (s.length >= n ? s : s + " ".repeat(n - s.length))

export const summaryTable = (e: Evidence): string => {
  const rows = e.scenarios.map((s) => {
    const ds = [...s.steps.flatMap((st) => st.differences), ...s.differences]
    return [s.name.slice(0, 60), s.verdict, String(s.steps.length), String(ds.filter((d) => d.classification === "divergence").length), String(ds.filter((d) => d.classification !== "divergence").length)]
  })
  const head = ["scenario", "verdict", "steps", "divergences", "tolerated"]
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) => cells.map((c, i) => pad(c, widths[i] ?? 0)).join("  ")
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
