/**
 * The HTML report of the committed 1,015-scenario campaign, opened in Debian's Chromium: its size,
 * and per load (a fresh browser context each) navigation start → DOMContentLoaded and → first
 * render (the page's `report-rendered` mark). Then one screenshot per view: the campaign's list,
 * coverage, learned noise, provenance and a tolerated drill-down; a tampered comparison's
 * divergent drill-down with its wire form. Writes evidence/benchmarks/html-report/.
 *
 *   node --conditions=@hermetic/source --import tsx bench/html-report.ts [--loads N]
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, statSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { NodeContext } from "@effect/platform-node"
import { readEvidenceFile, writeEvidence, writeHtmlReport } from "@hermetic/diff"
import { Effect } from "effect"
import type { Page } from "playwright-core"
import { chromiumMissing, launchChromium } from "../test/support/chromium.js"
import { tamperedChatEvidence } from "../test/support/tamperedChat.js"

const root = join(import.meta.dirname, "..")
const out = join(root, "evidence", "benchmarks", "html-report")
const campaign = join(root, "evidence", "campaigns", "process-seed-14002")
const head = join(campaign, "0.19.0-gateway-process-vs-emulator-inprocess.json.gz")
const base = join(root, "evidence", "campaigns", "seed-14001", "0.19.0-gateway-process-vs-emulator-inprocess.json.gz")
const loadsFlag = process.argv.indexOf("--loads")
const loads = loadsFlag > 0 ? Number(process.argv[loadsFlag + 1]) : 7

const missing = chromiumMissing()
if (missing !== undefined) {
  process.stderr.write(`html-report bench: ${missing}\n`)
  process.exit(2)
}

const run = <A>(effect: Effect.Effect<A, unknown, NodeContext.NodeContext>) => Effect.runPromise(effect.pipe(Effect.provide(NodeContext.layer)))
const loadAtStart = loadavg()
const [headEvidence, baseEvidence] = await Promise.all([run(readEvidenceFile(head)), run(readEvidenceFile(base))])
// the campaign's own report/ folder: what a reviewer opens
const html = await run(writeHtmlReport({ evidence: headEvidence, base: baseEvidence }, join(campaign, "report"), campaign))
const bytes = statSync(html).size

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN
const browser = await launchChromium()
const samples: Array<{ domContentLoadedMs: number; parsedMs: number; renderedMs: number }> = []
try {
  for (let k = 0; k < loads; k++) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } })
    const page = await context.newPage()
    await page.goto(pathToFileURL(html).href)
    await page.waitForSelector("body[data-ready='1']")
    // a string, not a function: tsx's name helpers do not exist in the page
    samples.push(
      await page.evaluate<{ domContentLoadedMs: number; parsedMs: number; renderedMs: number }>(`(() => {
        const nav = performance.getEntriesByType("navigation")[0]
        const mark = (name) => Math.round(performance.getEntriesByName(name)[0]?.startTime ?? NaN)
        return { domContentLoadedMs: Math.round(nav.domContentLoadedEventEnd), parsedMs: mark("report-parsed"), renderedMs: mark("report-rendered") }
      })()`)
    )
    await context.close()
  }

  const shots = join(out, "screenshots")
  mkdirSync(shots, { recursive: true })
  const shoot = async (page: Page, name: string, fullPage = false) => page.screenshot({ path: join(shots, `${name}.png`), fullPage })
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  const open = async (hash: string) => {
    await page.goto(`${pathToFileURL(html).href}#${hash}`)
    await page.reload()
    await page.waitForSelector("body[data-ready='1']")
  }
  await open("tab=scenarios")
  await page.click("#delta summary")
  await shoot(page, "1-scenarios-and-delta")
  const tolerated = headEvidence.scenarios.find((s) => s.verdict === "tolerated")
  await open(`tab=scenarios&v=tolerated&open=${tolerated?.position ?? 0}`)
  await page.locator("tr.detail-row .ln.hl").first().scrollIntoViewIfNeeded()
  await shoot(page, "2-tolerated-drill-down")
  await open("tab=coverage")
  await shoot(page, "3-coverage", true)
  await open("tab=noise")
  await shoot(page, "4-learned-noise")
  await open("tab=provenance")
  await shoot(page, "5-provenance")

  // a divergent drill-down needs a divergence: the tampered comparison's, in a temporary folder
  const tampered = await tamperedChatEvidence()
  const tmp = join(out, ".tampered")
  const written = await run(writeEvidence(tampered, tmp))
  await page.goto(`${pathToFileURL(written.html).href}#open=0`)
  await page.waitForSelector("body[data-ready='1']")
  await page.locator(".step[data-step='1'] .sbs").first().scrollIntoViewIfNeeded()
  await shoot(page, "6-divergent-drill-down")
  await page.locator(".step[data-step='3'] details.raw summary").click()
  await page.locator(".step[data-step='3'] table.frames").first().scrollIntoViewIfNeeded()
  await shoot(page, "7-wire-form-sse-frames")
  await page.goto(`${pathToFileURL(written.html).href}#tab=register`)
  await page.reload()
  await page.waitForSelector("body[data-ready='1']")
  await shoot(page, "8-register")
  execFileSync("rm", ["-rf", tmp])
} finally {
  await browser.close()
}

const result = {
  measuredAt: new Date().toISOString(),
  commit: execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" }).trim(),
  loadAverage: { start: loadAtStart, end: loadavg() },
  chromium: execFileSync("/usr/bin/chromium", ["--version"], { encoding: "utf8" }).trim(),
  report: { file: "evidence/campaigns/process-seed-14002/report/index.html", bytes, scenarios: headEvidence.summary.scenarios },
  loads: samples,
  median: { domContentLoadedMs: median(samples.map((s) => s.domContentLoadedMs)), parsedMs: median(samples.map((s) => s.parsedMs)), renderedMs: median(samples.map((s) => s.renderedMs)) },
  max: { domContentLoadedMs: Math.max(...samples.map((s) => s.domContentLoadedMs)), renderedMs: Math.max(...samples.map((s) => s.renderedMs)) }
}
mkdirSync(out, { recursive: true })
writeFileSync(join(out, "load-time.json"), `${JSON.stringify(result, null, 2)}\n`)
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
