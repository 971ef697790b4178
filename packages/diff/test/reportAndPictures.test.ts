/**
 * `oracle report` (what changed between two evidence files) and the report's pictures: a broken
 * emulator against the correct one gives new divergences one way and fixed ones the other, and
 * the coverage heat map colours each operation × status cell by what the evidence says.
 */
import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { gzipSync } from "node:zlib"
import { NodeContext } from "@effect/platform-node"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { cliEntry } from "../../../test/support/cliEntry.js"
import { compareAll } from "../src/compare/compareAll.js"
import { EMPTY_REGISTER } from "../src/diff/DivergenceRegister.js"
import type { Evidence } from "../src/evidence/Evidence.js"
import { renderDelta } from "../src/evidence/renderDelta.js"
import { renderReport } from "../src/evidence/renderReport.js"
import { writeEvidence } from "../src/evidence/writeEvidence.js"
import { CELL_COLOURS, coverageHeatmap } from "../src/pictures/coverageHeatmap.js"
import { workersPicture } from "../src/pictures/benchPictures.js"
import { replaceReportSection } from "../src/evidence/reportSection.js"
import { renderWorkersSection, WORKERS_SECTION } from "../src/evidence/workersSection.js"
import type { Scenario } from "../src/scenario/Scenario.js"
import { emulatorInProcessTarget } from "../src/target/EmulatorTargets.js"

type Fetch = (url: string, init: RequestInit) => Promise<Response>
const wrongStop = (f: Fetch): Fetch => async (url, init) => {
  const res = await f(url, init)
  return url.endsWith("/stop") ? new Response(res.body, { status: 410, headers: res.headers }) : res
}

const scenario: Scenario = {
  version: 1,
  name: "stop of an unknown run",
  steps: [{ request: { method: "GET", path: "/health", auth: "none" } }, { request: { method: "POST", path: "/v1/runs/run_00000000000000000000000000000000/stop" } }]
}

const evidenceOf = (broken: boolean): Promise<Evidence> =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function*() {
        const reference = yield* emulatorInProcessTarget({ pin: "0.19.0" })
        const candidate = yield* emulatorInProcessTarget({ pin: "0.19.0", ...(broken ? { wrapFetch: wrongStop } : {}) })
        const provenance = { emulatorCommit: broken ? "head" : "base", emulatorDirty: false, node: process.version, runs: 0, command: "vitest" }
        return (yield* compareAll({ reference, candidate, scenarios: [{ scenario }], register: EMPTY_REGISTER, noiseMethod: "none", provenance })).evidence
      })
    )
  )

describe("oracle report --base --head", () => {
  it("names a new divergence (exit 1 in the CLI) and, the other way round, a fixed one", async () => {
    const good = await evidenceOf(false)
    const bad = await evidenceOf(true)
    const worse = renderDelta(good, bad)
    expect(worse.newDivergences).toBe(1)
    expect(worse.fixedDivergences).toBe(0)
    expect(worse.markdown).toContain("| stop of an unknown run | 1 | runs.stop | status | `$.response.status` | `404` | `410` |")
    expect(worse.markdown).toContain("| stop of an unknown run | equal | divergent |")
    const better = renderDelta(bad, good)
    expect(better.newDivergences).toBe(0)
    expect(better.fixedDivergences).toBe(1)
    expect(renderDelta(good, good).markdown).toContain("### New divergences\n\nNone.")
  })

  it("exits 1 from the CLI when a divergence is new, 0 when none is", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hermetic-report-"))
    try {
      const write = async (e: Evidence, to: string) => (await Effect.runPromise(writeEvidence(e, to).pipe(Effect.provide(NodeContext.layer)))).json
      const base = await write(await evidenceOf(false), join(dir, "base"))
      const head = await write(await evidenceOf(true), join(dir, "head"))
      const oracle = (...args: Array<string>) =>
        promisify(execFile)(process.execPath, [...cliEntry("oracle"), ...args], { timeout: 60_000 }).then(
          (r) => ({ code: 0, stdout: r.stdout }),
          (e: { code?: number; stdout?: string }) => ({ code: e.code ?? -1, stdout: e.stdout ?? "" })
        )
      // a campaign's evidence is committed gzipped; report reads it as well
      const gz = `${base}.gz`
      await writeFile(gz, gzipSync(await readFile(base)))
      const [worse, same] = await Promise.all([oracle("report", "--base", base, "--head", head), oracle("report", "--base", base, "--head", gz)])
      expect(worse.code).toBe(1)
      expect(worse.stdout).toContain("1 new divergence(s), 0 fixed")
      expect(same.code).toBe(0)
      // and the HTML report of the head, next to it, with the delta inside its gzipped payload
      const html = await readFile(join(dir, "head", "report", "index.html"), "utf8")
      expect(html).toContain("<title>hermetic 0.19.0: divergences found")
      expect(html).not.toMatch(/<(script|link)[^>]+(src|href)=/)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 60_000)
})

describe("pictures", () => {
  it("colour every operation × status cell by the evidence and embed in REPORT.md", async () => {
    const svg = coverageHeatmap(
      [
        { operation: "runs.stop", method: "POST", path: "/v1/runs/{run_id}/stop", implemented: true, statuses: [{ status: 404, exercised: true, verified: true, seenOnReal: true }, { status: 409, exercised: true, verified: false, seenOnReal: false }] },
        { operation: "runs.get", method: "GET", path: "/v1/runs/{run_id}", implemented: true, statuses: [{ status: 200, exercised: false, verified: false, seenOnReal: true }] },
        { operation: "platforms.events", method: "POST", path: "/api/platforms/{platform}/events", implemented: false, statuses: [] }
      ],
      "t"
    )
    const cell = (title: string) => new RegExp(`fill="([^"]+)"><title>${title.replace(/[.]/g, "\\.")}</title>`).exec(svg)?.[1]
    expect(cell("runs.stop 404: verified")).toBe(CELL_COLOURS.verified)
    expect(cell("runs.stop 409: emulator-only")).toBe(CELL_COLOURS["emulator-only"])
    expect(cell("runs.get 200: real-only")).toBe(CELL_COLOURS["real-only"])
    expect(cell("platforms.events 404: never")).toBe(CELL_COLOURS.never)
    expect(svg).toContain("platforms.events (not emulated)")
    const report = renderReport(await evidenceOf(false), "## Pictures\n\n![coverage](coverage.svg)\n")
    expect(report.indexOf("![coverage](coverage.svg)")).toBeLessThan(report.indexOf("## Summary"))
  })

  it("draws the campaign speed from workers-bench.json and nothing from something else", () => {
    const point = (workers: number, rate: number) => ({ workers, scenarios: 40, scenariosPerSecond: rate, loadAverageBefore: [2, 2, 2], loadAverageAfter: [3, 3, 3] })
    const picture = workersPicture({ measuredAt: "t", command: "c", launcher: "process", points: [point(1, 0.5), point(2, 0.9), point(4, 1.4)] })
    expect(picture?.file).toBe("workers-speed.svg")
    expect(picture?.svg.match(/<circle /g)).toHaveLength(3)
    expect(workersPicture({ points: "no" })).toBeUndefined()
  })

  it("writes the workers section: speed-up over one worker and where the CPU went, in place of the old one", () => {
    const cpu = (gateway: number, busy: number) => ({ runnerSeconds: 10, gatewaySeconds: gateway, gatewaySecondsComplete: true, machineBusy: busy, cpus: 2 })
    const point = (workers: number, rate: number, gateway: number, busy: number) => ({
      workers, scenarios: 50, divergent: 0, errors: 0, wallSeconds: 50 / rate, scenariosPerSecond: rate,
      loadAverageBefore: [4, 3, 2], loadAverageAfter: [6, 4, 2], cpu: cpu(gateway, busy), cpuSecondsPerScenario: (10 + gateway) / 50, cpuBoundScenariosPerSecond: 2 / ((10 + gateway) / 50)
    })
    const section = renderWorkersSection({ measuredAt: "t", command: "oracle bench --target container --workers 1,2,4", launcher: "container", points: [point(1, 0.3, 40, 0.9), point(2, 0.55, 40, 0.95), point(4, 0.9, 40, 1)] })
    expect(section).toContain("| 4 | 50 | 55.6 | 0.9 | 3.00× | 10.0 | 40.0 | 1.00 | 100 % | 4 → 6 | 0 / 0 |")
    expect(section).toContain("would allow 2 scenarios/s if nothing else ran")
    // an old workers-bench.json without CPU still renders, with unknowns shown as such
    expect(renderWorkersSection({ measuredAt: "t", command: "c", launcher: "process", points: [{ workers: 1, scenarios: 40, scenariosPerSecond: 0.2, loadAverageBefore: [9], loadAverageAfter: [10] }] })).toContain("| 1 | 40 | ? | 0.2 | 1.00× | ? | ? | ? | ? | 9 → 10 | ? |")
    expect(renderWorkersSection({ points: [] })).toBeUndefined()
    const report = "# Report\n\n<!-- workers:start -->\nold\n<!-- workers:end -->\n\n<!-- bench:start -->\nb\n<!-- bench:end -->\n"
    const next = replaceReportSection(report, WORKERS_SECTION, section ?? "")
    expect(next).not.toContain("old")
    expect(next).toContain("<!-- bench:start -->\nb\n<!-- bench:end -->")
    expect(replaceReportSection("# Report\n", "workers", "new")).toBe("# Report\n\n<!-- workers:start -->\nnew\n<!-- workers:end -->\n")
  })
})
