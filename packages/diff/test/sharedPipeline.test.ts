/**
 * `oracle fuzz` judges on the same pipeline as `oracle compare`: a register entry tolerates a fuzz
 * difference exactly as it tolerates the same difference in a scenario, and fuzz evidence is common
 * evidence that REPORT.md, the HTML report and `oracle report` read like a comparison's.
 */
import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { gunzipSync } from "node:zlib"
import { startEmulator } from "@hermetic/emulator"
import { NodeContext } from "@effect/platform-node"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { firedCounts } from "../src/compare/compareAll.js"
import { compareScenario } from "../src/compare/compareScenario.js"
import type { ScenarioComparison } from "../src/compare/judgeRuns.js"
import { type DivergenceRegister, EMPTY_REGISTER } from "../src/diff/DivergenceRegister.js"
import { assembleEvidence } from "../src/evidence/assembleEvidence.js"
import type { ClassifiedDifference, Evidence } from "../src/evidence/Evidence.js"
import { readEvidenceFile } from "../src/evidence/readEvidence.js"
import { writeEvidence } from "../src/evidence/writeEvidence.js"
import type { Exchange } from "../src/exchange/Exchange.js"
import { judgeFuzzCase } from "../src/fuzz/compareFuzzCase.js"
import type { FuzzCase } from "../src/fuzz/FuzzCase.js"
import type { Scenario } from "../src/scenario/Scenario.js"
import { emulatorInProcessTarget } from "../src/target/EmulatorTargets.js"
import { rawSocketTarget } from "../src/target/RawTarget.js"
import type { TargetInfo } from "../src/target/Target.js"

const KEY = "shared-pipeline-key-0123456789abcdef"
const RUN = "run_00000000000000000000000000000000"
const te = new TextEncoder()

/** The candidate's fault in both pipelines: a stop answered 410 where the reference answers 404. */
const gone = (status: number) => (status === 404 ? 410 : status)

const REGISTER: DivergenceRegister = {
  version: 1,
  entries: [{ id: "stop-gone", operation: "runs.stop", kind: "status", path: "$.response.status", category: "gap", reason: "the test's candidate answers a missing run's stop with 410" }]
}

const REAL: TargetInfo = { kind: "gateway-process", pin: "0.19.0", real: true, clock: "running", description: "an emulator standing in for the reference" }
const EMU: TargetInfo = { kind: "emulator-http", pin: "0.19.0", real: false, clock: "running", description: "the candidate" }

const stopCase = (id: number, label: string): FuzzCase => ({
  id,
  family: "path",
  label,
  method: "POST",
  target: te.encode(`/v1/runs/${RUN}/stop`),
  headers: [["Authorization", te.encode("Bearer {{KEY}}")]],
  body: { _tag: "none" }
})

const scenario: Scenario = { version: 1, name: "stop of an unknown run", steps: [{ request: { method: "POST", path: `/v1/runs/${RUN}/stop` } }] }

/** The scenario on two in-process emulators, the candidate's stop answered with `gone`. */
const compared = (register: DivergenceRegister) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function*() {
        const reference = yield* emulatorInProcessTarget({ pin: "0.19.0" })
        const candidate = yield* emulatorInProcessTarget({
          pin: "0.19.0",
          wrapFetch: (f) => async (url, init) => {
            const res = await f(url, init)
            return new Response(res.body, { status: gone(res.status), headers: res.headers })
          }
        })
        return yield* compareScenario(reference, candidate, scenario, { register, pin: "0.19.0" })
      })
    )
  )

/** The case played for real on an emulator over a socket (the reference); the candidate is that answer with `gone`. */
const fuzzed = async (register: DivergenceRegister, c: FuzzCase = stopCase(0, "stop of an unknown run")) => {
  const emu = await startEmulator({ hermesVersion: "0.19.0", apiKey: KEY, port: 0 })
  try {
    const exchange = await Effect.runPromise(rawSocketTarget(REAL, emu.port, KEY, 5_000).send(c))
    const response = exchange.response
    if (response === undefined) throw new Error(`no answer: ${exchange.transportError}`)
    const broken: Exchange = { ...exchange, response: { ...response, status: gone(response.status), ...(response.head !== undefined ? { head: response.head } : {}) } }
    return judgeFuzzCase(c, 7, { info: REAL, exchange, durationMs: 1 }, { info: EMU, exchange: broken, durationMs: 1 }, { register, pin: "0.19.0" })
  } finally {
    await emu.close()
  }
}

const differences = (c: ScenarioComparison): Array<ClassifiedDifference> => c.evidence.steps.flatMap((s) => s.differences)
const judged = (ds: ReadonlyArray<ClassifiedDifference>) => ds.map((d) => ({ operation: d.operation, kind: d.kind, path: d.path, classification: d.classification, reason: d.reason }))

describe("one register for compare and fuzz", () => {
  it("tolerates a fuzz difference for the same entry and reason as the same difference in a scenario, and neither without it", async () => {
    const scenarioWay = judged(differences(await compared(REGISTER)))
    const fuzzWay = judged(differences(await fuzzed(REGISTER)))
    expect(scenarioWay).toEqual([
      { operation: "runs.stop", kind: "status", path: "$.response.status", classification: "registered", reason: "stop-gone: the test's candidate answers a missing run's stop with 410" }
    ])
    // the candidate keeps the reference's raw head (only its status was changed): the status is the one difference, as in the scenario
    expect(fuzzWay).toEqual(scenarioWay)
    expect(judged(differences(await compared(EMPTY_REGISTER))).map((d) => d.classification)).toEqual(["divergence"])
    expect(judged(differences(await fuzzed(EMPTY_REGISTER))).map((d) => d.classification)).toEqual(["divergence"])
  }, 60_000)
})

describe("fuzz evidence is common evidence", () => {
  it("REPORT.md, the HTML report and `oracle report` read it like a comparison's", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hermetic-fuzz-evidence-"))
    try {
      const evidenceOf = (comparisons: ReadonlyArray<ScenarioComparison>, register: DivergenceRegister): Evidence =>
        assembleEvidence({
          scenarios: comparisons.map((c) => c.evidence),
          fired: firedCounts(comparisons),
          noise: { method: "not learned", observations: [] },
          register,
          clock: "running",
          provenance: { pin: "0.19.0", reference: REAL, candidate: EMU, emulatorCommit: "test", emulatorDirty: false, node: process.version, runs: 2, seed: 7, command: "vitest", startedAt: "2026-01-01T00:00:00.000Z", finishedAt: "2026-01-01T00:00:01.000Z" }
        })
      const write = async (e: Evidence, to: string) => Effect.runPromise(writeEvidence(e, to, "fuzz-0.19.0").pipe(Effect.provide(NodeContext.layer)))
      // base: the stop tolerated by the register; head: the same cases with no register, so the stop is a divergence
      const base = await write(evidenceOf([await fuzzed(REGISTER, stopCase(0, "stop | tolerated"))], REGISTER), join(dir, "base"))
      const head = await write(evidenceOf([await fuzzed(EMPTY_REGISTER, stopCase(0, "stop | tolerated"))], EMPTY_REGISTER), join(dir, "head"))

      const read = await Effect.runPromise(readEvidenceFile(head.json).pipe(Effect.provide(NodeContext.layer)))
      expect(read.scenarios[0]?.origin).toEqual({ generator: "oracle fuzz", seed: 7, case: 0, family: "path", label: "stop | tolerated" })
      expect(read.summary).toMatchObject({ scenarios: 1, divergent: 1 })

      const baseReport = await readFile(base.report, "utf8")
      // a label's `|` is escaped in the tables; the register entry is named as the reason
      expect(baseReport).toContain("| fuzz 0 path: stop \\| tolerated | 0 | runs.stop | status | `$.response.status` | registered: stop-gone: ")
      const headReport = await readFile(head.report, "utf8")
      expect(headReport).toContain("❌ divergences found")
      expect(headReport).toContain("| fuzz 0 path: stop \\| tolerated | 0 | runs.stop | status | `$.response.status` | `404` | `410` |")

      const html = await readFile(head.html, "utf8")
      const payload = /<script type="application\/octet-stream" id="payload">([^<]+)<\/script>/.exec(html)?.[1]
      expect(payload).toBeDefined()
      expect(gunzipSync(Buffer.from(payload ?? "", "base64")).toString("utf8")).toContain("fuzz 0 path: stop | tolerated")

      const main = new URL("../src/cli/main.ts", import.meta.url).pathname
      const delta = join(dir, "delta.md")
      const run = await promisify(execFile)(process.execPath, ["--import", "tsx", main, "report", "--base", base.json, "--head", head.json, "--out", delta], { timeout: 60_000 }).then(
        () => 0,
        (e: { code?: number }) => e.code ?? -1
      )
      // a divergence new in the head: exit 1, named in the delta like a scenario's
      expect(run).toBe(1)
      expect(await readFile(delta, "utf8")).toContain("| fuzz 0 path: stop \\| tolerated | 0 | runs.stop | status | `$.response.status` | `404` | `410` |")
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
