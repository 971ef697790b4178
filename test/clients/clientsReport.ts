/**
 * The "Clients" section of evidence/REPORT.md, from the recorded matrices in evidence/clients/:
 * one row per client and case, the emulator's outcome beside the real gateway's. Kept between
 * `<!-- clients:start -->` and `<!-- clients:end -->`, which a new comparison preserves.
 */
import { replaceReportSection } from "../../packages/diff/src/evidence/reportSection.js"
import type { MatrixRow } from "./matrix.js"

export interface RecordedMatrix {
  readonly target: string
  readonly pin: string
  readonly recordedAt: string
  readonly versions: Readonly<Record<string, string>>
  readonly rows: ReadonlyArray<MatrixRow>
}

const cell = (row: MatrixRow | undefined) => (row === undefined ? "not run" : row.outcome === "ok" ? "ok" : `fails: ${row.detail.replace(/\|/g, "\\|")}`)

export const renderClientsSection = (emulator: RecordedMatrix, gateway: RecordedMatrix): string => {
  const key = (r: MatrixRow) => `${r.client}\u0000${r.case}`
  const onGateway = new Map(gateway.rows.map((r) => [key(r), r]))
  const lines = emulator.rows.map((r) => {
    const g = onGateway.get(key(r))
    const verdict = g === undefined ? "not recorded on the gateway" : g.outcome === r.outcome ? (r.outcome === "ok" ? "same" : "same (fails on both: the client, not the emulator)") : "DIFFERENT"
    return `| ${r.client} | ${r.case} | ${cell(r)} | ${cell(g)} | ${verdict} |`
  })
  const same = emulator.rows.filter((r) => onGateway.get(key(r))?.outcome === r.outcome).length
  return [
    "## Clients",
    "",
    `Real client libraries against the emulator and against the real Hermes ${gateway.pin} gateway (started by the oracle runner), ` +
      `each case scripting one model reply and checking the library hands back exactly that text. ` +
      `${same} of ${emulator.rows.length} cases behave the same on both sides.`,
    "",
    `Versions: ${Object.entries(emulator.versions).map(([k, v]) => `${k} ${v}`).join(", ")}. ` +
      `Gateway recorded ${gateway.recordedAt}, emulator ${emulator.recordedAt}. ` +
      "Regenerate: `HERMETIC_LIVE=1 node --conditions=@hermetic/source --import tsx test/clients/record.ts` (evidence in `evidence/clients/`).",
    "",
    `| client | case | emulator ${emulator.pin} | real gateway ${gateway.pin} | |`,
    "| --- | --- | --- | --- | --- |",
    ...lines,
    "",
    "Where a case fails, it fails alike on the real gateway, so the emulator reproduces the server faithfully; why, from the real gateway's answers:",
    "",
    ...gateway.rows.filter((r) => r.outcome === "fails").map((r) => `- ${r.client}, ${r.case}: ${r.detail}${r.note === undefined ? "" : ` — ${r.note}`}`)
  ].join("\n")
}

/** REPORT.md with the section replaced (or appended). */
export const withClientsSection = (report: string, section: string): string => replaceReportSection(report, "clients", section)
