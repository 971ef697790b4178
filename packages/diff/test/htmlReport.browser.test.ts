/**
 * The HTML report in a real browser (Debian's Chromium, driven by playwright-core): the evidence of
 * a real comparison — the emulator against an emulator whose chat completion answers were tampered
 * with — is written, opened from file://, filtered, drilled into, and its differing JSON paths found
 * highlighted. Skips, saying why, where Chromium is not installed.
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { NodeContext } from "@effect/platform-node"
import { Effect } from "effect"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { chromiumMissing, launchChromium } from "../../../test/support/chromium.js"
import { tamperedChatEvidence } from "../../../test/support/tamperedChat.js"
import type { Evidence } from "../src/evidence/Evidence.js"
import { readEvidenceFile } from "../src/evidence/readEvidence.js"
import { writeEvidence } from "../src/evidence/writeEvidence.js"
import { writeHtmlReport } from "../src/report/writeHtmlReport.js"

const missing = chromiumMissing()
if (missing !== undefined) process.stdout.write(`htmlReport.browser.test: skipped, ${missing}\n`)

describe.skipIf(missing !== undefined)("the HTML report in Chromium", () => {
  let dir = ""
  let browser: Browser
  let page: Page
  let evidence: Evidence
  const errors: Array<string> = []

  beforeAll(async () => {
    evidence = await tamperedChatEvidence()
    dir = await mkdtemp(join(tmpdir(), "hermetic-html-"))
    const written = await Effect.runPromise(writeEvidence(evidence, dir).pipe(Effect.provide(NodeContext.layer)))
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    page.on("pageerror", (e) => errors.push(String(e)))
    await page.goto(pathToFileURL(written.html).href)
    await page.waitForSelector("body[data-ready='1']")
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    if (dir !== "") await rm(dir, { recursive: true, force: true })
  })

  it("shows the verdict and one row per scenario, without a script error", async () => {
    expect(evidence.summary.divergent).toBe(1)
    expect(await page.textContent("#verdict")).toBe("divergences found")
    expect(await page.locator("tr.row").count()).toBe(2)
    expect(errors).toEqual([])
  })

  it("filters by verdict, operation, status, profile and free text", async () => {
    await page.uncheck("input[data-verdict='divergent']")
    expect(await page.locator("tr.row").allTextContents()).toEqual([expect.stringContaining("health and routing answers")])
    await page.check("input[data-verdict='divergent']")
    await page.selectOption("#op", "chat.completions")
    expect(await page.locator("tr.row").allTextContents()).toEqual([expect.stringContaining("chat completions: plain")])
    await page.selectOption("#op", "")
    await page.selectOption("#status", "404")
    expect(await page.locator("tr.row").allTextContents()).toEqual([expect.stringContaining("health and routing answers")])
    await page.selectOption("#status", "")
    expect(await page.locator("#profile option").allTextContents()).toEqual(["any profile", "strict"])
    await page.selectOption("#profile", "strict")
    expect(await page.locator("tr.row").count()).toBe(2)
    await page.fill("#q", "usage")
    await page.waitForFunction(() => document.querySelectorAll("tr.row").length === 1)
    expect(await page.locator("tr.row").textContent()).toContain("chat completions")
    await page.fill("#q", "no such scenario anywhere")
    await page.waitForSelector("td.empty")
    await page.fill("#q", "")
    await page.waitForFunction(() => document.querySelectorAll("tr.row").length === 2)
  })

  it("drills into a scenario: steps, highlighted paths on both sides, the tolerating rule, the wire form, the replay command", async () => {
    await page.click("tr.row:has-text('chat completions')")
    const detail = page.locator("tr.detail-row")
    expect(await detail.locator(".step").count()).toBe(evidence.scenarios[0]?.steps.length)
    const first = detail.locator(".step[data-step='1'] .sbs").first()
    // the changed value is marked on both sides; the dropped field on the gateway's side, its object on the emulator's
    expect(await first.locator(".pane").nth(0).locator(".ln.hl.changed[data-path='$.response.body.object']").count()).toBe(1)
    expect(await first.locator(".pane").nth(1).locator(".ln.hl.changed[data-path='$.response.body.object']").textContent()).toContain("chat.completion.tampered")
    expect(await first.locator(".pane").nth(0).locator(".ln.hl.missing[data-path='$.response.body.usage']").count()).toBe(1)
    expect(await first.locator(".pane").nth(1).locator(".ln.inner[data-path='$.response.body']").count()).toBe(1)
    expect(await first.locator(".pane").nth(1).locator(".ln.hl.extra[data-path='$.response.headers[\"x-tampered\"]']").count()).toBe(1)
    // the header is tolerated by the register entry, and says why
    expect(await detail.locator(".step[data-step='1'] tr[data-diff-path='$.response.headers[\"x-tampered\"]']").textContent()).toContain("registered: T-header: the test adds this header")
    // the streamed step's wire form: headers in order and each SSE frame with the time it arrived
    const stream = detail.locator(".step[data-step='3']")
    await stream.locator("details.raw summary").first().click()
    const frames = stream.locator(".pane").nth(2).locator("table.frames tbody tr")
    expect(await frames.count()).toBeGreaterThan(2)
    expect(await frames.first().locator("td").nth(1).textContent()).toMatch(/^\+\d/)
    expect(await stream.locator(".pane").nth(3).locator("pre.raw").nth(1).textContent()).toContain("x-tampered: yes")
    expect(await detail.locator("code.replay").textContent()).toBe("npm run oracle -- replay packages/diff/scenarios/chat-completions.json --target process --pin 0.19.0")
  })

  it("opens an equal step's exchanges on demand, and the other tabs", async () => {
    await page.click("tr.row:has-text('health and routing answers')")
    const health = page.locator("tr.detail-row").nth(1)
    await health.locator("button.show").first().click()
    expect(await health.locator(".sbs .ln.hl").count()).toBe(0)
    expect(await health.locator(".sbs .pane").count()).toBe(2)
    await page.click("nav button[data-tab='coverage']")
    expect(await page.locator("#tab-coverage svg rect").count()).toBeGreaterThan(4)
    await page.click("nav button[data-tab='register']")
    expect(await page.locator("#tab-register").textContent()).toContain("T-header")
    expect(errors).toEqual([])
  })
})

describe.skipIf(missing !== undefined)("the HTML report of fuzz evidence", () => {
  it("opens the committed live fuzz run like a comparison: its cases as rows, the tolerating entry and its answer conditions", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hermetic-html-fuzz-"))
    const browser = await launchChromium()
    try {
      const evidence = await Effect.runPromise(
        readEvidenceFile(new URL("../../../evidence/live-comparisons/fuzz/fuzz-0.19.0.json.gz", import.meta.url).pathname).pipe(Effect.provide(NodeContext.layer))
      )
      const html = await Effect.runPromise(writeHtmlReport({ evidence, reportMarkdown: "" }, dir, dir).pipe(Effect.provide(NodeContext.layer)))
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
      const errors: Array<string> = []
      page.on("pageerror", (e) => errors.push(String(e)))
      await page.goto(pathToFileURL(html).href)
      await page.waitForSelector("body[data-ready='1']")
      expect(await page.textContent("#verdict")).toBe("no divergence")
      // the named claims are cases like any other, found by their label
      await page.fill("#q", "[claim] bearer variant: good — GET")
      await page.waitForFunction(() => document.querySelectorAll("tr.row").length === 1)
      expect(await page.locator("tr.row").textContent()).toContain("GET /v1/models")
      // a parser refusal, tolerated by the register entry whose conditions the tab shows
      const tolerated = evidence.scenarios.find((s) => s.steps[0]?.differences.some((d) => d.reason?.startsWith("http-parser-rejection-text:")))
      expect(tolerated).toBeDefined()
      await page.fill("#q", "")
      await page.click("nav button[data-tab='register']")
      const register = await page.locator("#tab-register").textContent()
      expect(register).toContain("http-parser-rejection-text")
      expect(register).toContain("when reference HTTP/1.0 400 *, candidate 400")
      expect(errors).toEqual([])
    } finally {
      await browser.close()
      await rm(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
