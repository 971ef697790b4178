/** Renders probe exchanges as the Markdown evidence file evidence/cassette-sources/live/<pin>-probe.md. */
import type { Exchange } from "./Exchange.js"

export type Provenance = {
  readonly pin: string
  readonly launcher: string
  readonly python: string
  readonly lockFiles: Readonly<Record<string, string>>
  readonly recordedAt: string
  readonly command: string
}

const fence = (s: string) => "```\n" + s.replace(/```/g, "`\u200b``") + "\n```"

export const renderEvidence = (p: Provenance, exchanges: ReadonlyArray<Exchange>, findings: ReadonlyArray<string>): string => {
  const lines: Array<string> = []
  lines.push(`# Live probe of the real Hermes ${p.pin} gateway`, "")
  lines.push(
    "Recorded by `oracle-runner probe` against the real pinned gateway started disposably, with the scripted",
    "fake model as the only substitution. Raw exchanges, as the gateway sent them (the `Date` header is",
    "dropped; the API key is replaced by `<API_SERVER_KEY>`). Ids and timestamps differ on every run.",
    ""
  )
  lines.push("## Provenance", "")
  lines.push(`- pin: \`${p.pin}\`, launcher: \`${p.launcher}\`, python: ${p.python}`)
  lines.push(`- recorded: ${p.recordedAt}`)
  lines.push(`- command: \`${p.command}\``)
  lines.push("- installed files verified against source-lock.json:")
  for (const [f, d] of Object.entries(p.lockFiles)) lines.push(`  - \`${f}\` sha256 \`${d}\``)
  lines.push("", "## Findings", "")
  for (const f of findings) lines.push(`- ${f}`)
  lines.push("", "## Exchanges", "")
  exchanges.forEach((e, i) => {
    lines.push(`### ${i + 1}. ${e.label}`, "")
    const req = [`${e.method} ${e.path}`, ...Object.entries(e.requestHeaders).map(([k, v]) => `${k}: ${v}`)]
    if (e.requestBody !== undefined) req.push("", e.requestBody)
    lines.push(fence(req.join("\n")), "")
    const resHeaders = e.responseHeaders.filter(([k]) => k !== "date").map(([k, v]) => `${k}: ${v}`)
    const body = e.responseBody.length > 4000 ? `${e.responseBody.slice(0, 4000)}\n… (${e.responseBody.length} chars, truncated)` : e.responseBody
    lines.push(fence([`HTTP ${e.status}`, ...resHeaders, "", body].join("\n")), "")
    lines.push(`- ${e.ms} ms; fake model saw: ${e.modelCalls ?? "-"}${e.note ? `; ${e.note}` : ""}`, "")
  })
  return lines.join("\n")
}
