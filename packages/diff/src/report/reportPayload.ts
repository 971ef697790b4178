/**
 * What the HTML report's page script reads: the evidence as the Schema encodes it, plus what the
 * page would otherwise compute with server-side code it does not have (operation ids, replay
 * commands, the heat map, the delta against a base, the sections other tools wrote in REPORT.md).
 */
import { Schema } from "effect"
import { operationOf } from "../coverage/Operations.js"
import { Evidence, type ScenarioEvidence } from "../evidence/Evidence.js"
import { renderDelta } from "../evidence/renderDelta.js"
import { coverageHeatmap } from "../pictures/coverageHeatmap.js"
import { markdownHtml, reportSections } from "./markdownHtml.js"
import { replayCommand } from "./replayCommand.js"

export interface HtmlReportInput {
  readonly evidence: Evidence
  /** The evidence to show the change against (`oracle report --base`). */
  readonly base?: Evidence
  /** REPORT.md as written next to the evidence: its generator-owned sections become tabs. */
  readonly reportMarkdown?: string
  /** SVG files those sections show, by the name they use. */
  readonly svgs?: ReadonlyMap<string, string>
}

export type OverallVerdict = "error" | "divergent" | "equal"

/** The header's verdict, decided as REPORT.md decides it. */
export const overallVerdict = (e: Evidence): { readonly level: OverallVerdict; readonly text: string } =>
  e.summary.errors > 0 || e.summary.scenarios === 0
    ? { level: "error", text: "the oracle could not run every scenario" }
    : e.summary.divergent > 0
      ? { level: "divergent", text: "divergences found" }
      : { level: "equal", text: "no divergence" }

const profileFlag = (e: Evidence) => /--profile\s+(\S+)/.exec(e.provenance.mergedFrom?.[0]?.command ?? e.provenance.command)?.[1] ?? "strict"

const exchangesOf = (s: ScenarioEvidence) => s.steps.flatMap((st) => [...(st.reference?.exchanges ?? []), ...(st.candidate?.exchanges ?? [])])

/**
 * The evidence with each step whose two normalized sides are equal carrying its reference only
 * (`same: true`; the page puts the candidate back): about half the bytes the page must unpack
 * and parse on a campaign, where nearly every step is equal.
 */
const sharedSides = (encoded: typeof Evidence.Encoded) => ({
  ...encoded,
  scenarios: encoded.scenarios.map((s) => ({
    ...s,
    steps: s.steps.map((st) => {
      if (st.reference === undefined || st.candidate === undefined || JSON.stringify(st.reference) !== JSON.stringify(st.candidate)) return st
      const { candidate: _, ...rest } = st
      return { ...rest, same: true }
    })
  }))
})

export const reportPayload = (input: HtmlReportInput) => {
  const e = input.evidence
  const fallbackProfile = profileFlag(e)
  const delta = input.base !== undefined ? renderDelta(input.base, e) : undefined
  return {
    evidence: sharedSides(Schema.encodeSync(Evidence)(e)),
    verdict: overallVerdict(e),
    scenarios: e.scenarios.map((s, i) => {
      const exchanges = exchangesOf(s)
      return {
        operations: [...new Set(exchanges.map((x) => operationOf(x.request.method, x.request.path)))].sort(),
        statuses: [...new Set(exchanges.flatMap((x) => (x.response !== undefined ? [x.response.status] : [])))].sort((a, b) => a - b),
        profile: s.profile ?? fallbackProfile,
        replay: replayCommand(e, s, i)
      }
    }),
    heatmap: coverageHeatmap(e.coverage, `Coverage, Hermes ${e.provenance.pin}: operation × status (${e.summary.scenarios} scenarios)`),
    sections: reportSections(input.reportMarkdown ?? "").map((s) => ({ id: s.id, title: s.title, html: markdownHtml(s.markdown, input.svgs) })),
    ...(delta !== undefined && input.base !== undefined
      ? {
        delta: {
          newDivergences: delta.newDivergences,
          fixedDivergences: delta.fixedDivergences,
          base: { commit: input.base.provenance.emulatorCommit, scenarios: input.base.summary.scenarios, divergent: input.base.summary.divergent },
          // the Markdown's own heading repeats the header's line
          html: markdownHtml(delta.markdown.replace(/^## .*\n/, ""))
        }
      }
      : {})
  }
}
