/**
 * The HTML report: one self-contained page (inline style and script, the evidence gzipped and
 * base64-encoded inside it; no network), which opens from file:// and from an unzipped CI artifact.
 * Hand-written rather than built with a framework: it is a static file with one table, a few
 * filters and lazily rendered drill-downs, and a framework would only add weight and a build step.
 */
import { gzipSync } from "node:zlib"
import { esc } from "../pictures/Svg.js"
import { overallVerdict, type HtmlReportInput, reportPayload } from "./reportPayload.js"
import { REPORT_SCRIPT } from "./reportScript.js"
import { REPORT_STYLE } from "./reportStyle.js"

export const renderHtmlReport = (input: HtmlReportInput): string => {
  const e = input.evidence
  const payload = gzipSync(JSON.stringify(reportPayload(input)), { level: 9 }).toString("base64")
  const title = `hermetic ${e.provenance.pin}: ${overallVerdict(e).text} (${e.summary.scenarios} scenarios)`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${REPORT_STYLE}</style>
</head>
<body>
<header id="head"><h1>${esc(title)}</h1><p class="meta">Loading the evidence…</p></header>
<noscript><p style="padding:0 22px">This report needs JavaScript; REPORT.md next to it has the same evidence as Markdown.</p></noscript>
<nav id="tabs"></nav>
<main>
<section class="tab" id="tab-scenarios">
<div class="filters">
<span id="verdicts"></span>
<label>operation <select id="op"></select></label>
<label>status <select id="status"></select></label>
<label>profile <select id="profile"></select></label>
<input type="search" id="q" placeholder="name, file, JSON path, reason…" aria-label="search">
<span class="note" id="found"></span>
</div>
<table id="scenarios"><thead><tr><th>verdict</th><th class="n">#</th><th>scenario</th><th>profile</th><th class="n">steps</th><th class="n">divergences</th><th class="n">tolerated</th><th class="n">reference ms</th><th class="n">emulator ms</th></tr></thead><tbody id="rows"></tbody></table>
<div class="pager"><button id="prev">← previous</button><span id="pageinfo"></span><button id="next">next →</button></div>
</section>
<section class="tab" id="tab-coverage"></section>
<section class="tab" id="tab-noise"></section>
<section class="tab" id="tab-register"></section>
<section class="tab" id="tab-rules"></section>
<section class="tab" id="tab-provenance"></section>
<div id="extra"></div>
</main>
<script type="application/octet-stream" id="payload">${payload}</script>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`
}
