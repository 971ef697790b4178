/**
 * The coverage matrix as a heat map: one row per operation, one column per HTTP status seen in
 * the comparison, each cell coloured by what the evidence says about that operation answering
 * that status — verified against the real gateway, emulator only, real gateway only, or never.
 */
import type { CoverageRow } from "../evidence/Evidence.js"
import { esc, svgDocument, text } from "./Svg.js"

export type CellState = "verified" | "emulator-only" | "real-only" | "never"

export const CELL_COLOURS: Record<CellState, string> = {
  verified: "#2e9e4f",
  "emulator-only": "#f0b429",
  "real-only": "#d64545",
  never: "#e6e8eb"
}

const LEGEND: ReadonlyArray<[CellState, string]> = [
  ["verified", "verified: real gateway and emulator answered it, no divergence"],
  ["emulator-only", "emulator only (not seen from the real gateway, or diverged)"],
  ["real-only", "real gateway only"],
  ["never", "never answered"]
]

export const cellState = (c: { readonly exercised: boolean; readonly verified: boolean; readonly seenOnReal: boolean } | undefined): CellState =>
  c === undefined ? "never" : c.verified ? "verified" : c.exercised ? "emulator-only" : c.seenOnReal ? "real-only" : "never"

export const coverageHeatmap = (rows: ReadonlyArray<CoverageRow>, title: string): string => {
  const statuses = [...new Set(rows.flatMap((r) => r.statuses.map((c) => c.status)))].sort((a, b) => a - b)
  const cell = 26
  const rowH = 18
  const labelW = 12 + Math.max(...rows.map((r) => r.operation.length + (r.implemented ? 0 : 16)), 10) * 6.6
  const top = 58
  const gridW = Math.max(statuses.length, 1) * cell
  const width = Math.ceil(Math.max(labelW + gridW + 24, title.length * 9 + 20, 420))
  const legendTop = top + rows.length * rowH + 16
  const height = legendTop + LEGEND.length * 18 + 10
  const body: Array<string> = [text(10, 20, title, 'font-size="14" font-weight="bold"')]
  statuses.forEach((s, k) => body.push(text(labelW + k * cell + cell / 2, top - 8, String(s), 'text-anchor="middle" font-size="11"')))
  body.push(text(labelW + gridW / 2, 38, "HTTP status", 'text-anchor="middle" font-size="11" fill="#555"'))
  rows.forEach((row, i) => {
    const y = top + i * rowH
    const label = row.implemented ? row.operation : `${row.operation} (not emulated)`
    body.push(text(labelW - 8, y + rowH - 5, label, `text-anchor="end" font-size="11"${row.implemented ? "" : ' fill="#888"'}`))
    statuses.forEach((s, k) => {
      const state = cellState(row.statuses.find((c) => c.status === s))
      body.push(
        `<rect x="${labelW + k * cell + 1}" y="${y + 1}" width="${cell - 2}" height="${rowH - 2}" rx="2" fill="${CELL_COLOURS[state]}"><title>${esc(`${row.operation} ${s}: ${state}`)}</title></rect>`
      )
    })
  })
  LEGEND.forEach(([state, words], k) => {
    const y = legendTop + k * 18
    body.push(`<rect x="10" y="${y}" width="14" height="14" rx="2" fill="${CELL_COLOURS[state]}"/>`, text(30, y + 11, words, 'font-size="11"'))
  })
  return svgDocument(width, height, body, title)
}
