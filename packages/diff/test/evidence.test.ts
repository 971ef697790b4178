import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { NodeContext } from "@effect/platform-node"
import { Effect, Schema } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { compareAll } from "../src/compare/compareAll.js"
import { Evidence } from "../src/evidence/Evidence.js"
import { cassetteJsonSchema, evidenceJsonSchema, schemaDir } from "../src/evidence/evidenceJsonSchema.js"
import { writeEvidence } from "../src/evidence/writeEvidence.js"
import type { Scenario } from "../src/scenario/Scenario.js"
import { emulatorInProcessTarget } from "../src/target/EmulatorTargets.js"

const dirs: Array<string> = []
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true })
})

describe("evidence", () => {
  it("the committed JSON Schemas are the ones generated from the Schemas", async () => {
    expect(JSON.parse(await readFile(join(schemaDir(), "evidence.schema.json"), "utf8"))).toEqual(evidenceJsonSchema())
    expect(JSON.parse(await readFile(join(schemaDir(), "cassette.schema.json"), "utf8"))).toEqual(cassetteJsonSchema())
  })

  it("is written as schema-valid JSON, a report with summary → divergences → coverage, and JUnit", async () => {
    const scenario: Scenario = {
      version: 1,
      name: "run then stop",
      steps: [
        { request: { method: "POST", path: "/v1/runs", body: { input: "hi" } }, as: "r" },
        { request: { method: "GET", path: "/v1/runs/{r.run_id}" }, until: { terminal: true } },
        { request: { method: "POST", path: "/v1/runs/{r.run_id}/stop" } }
      ]
    }
    const evidence = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function*() {
          const reference = yield* emulatorInProcessTarget({ pin: "0.19.0", pinnedClock: 1_764_500_000 })
          const candidate = yield* emulatorInProcessTarget({
            pin: "0.19.0",
            pinnedClock: 1_764_500_000,
            wrapFetch: (f) => async (url, init) => {
              const res = await f(url, init)
              if (!url.includes("/stop")) return res
              return new Response(JSON.stringify({ error: "tampered" }), { status: 409, headers: res.headers })
            }
          })
          return (yield* compareAll({
            reference,
            candidate,
            scenarios: [{ scenario }],
            register: { version: 1, entries: [{ id: "T1", operation: "runs.stop", kind: "type", path: "$.response.body.error", category: "gap", reason: "test" }] },
            noiseMethod: "none",
            provenance: { emulatorCommit: "c", emulatorDirty: false, node: process.version, runs: 1, command: "vitest", seed: 7 }
          })).evidence
        })
      )
    )
    const dir = await mkdtemp(join(tmpdir(), "hermetic-evidence-"))
    dirs.push(dir)
    const written = await Effect.runPromise(writeEvidence(evidence, dir).pipe(Effect.provide(NodeContext.layer)))
    const decoded = Schema.decodeUnknownSync(Evidence)(JSON.parse(await readFile(written.json, "utf8")))
    expect(decoded.summary).toMatchObject({ scenarios: 1, divergent: 1, differences: { divergence: 1, registered: 1 } })
    expect(decoded.normalization.clock).toBe("pinned")
    expect(decoded.normalization.rules.some((r) => r.id === "time.relations")).toBe(false)
    const report = await readFile(written.report, "utf8")
    const order = ["## Summary", "## Divergences", "## Tolerated differences", "## Coverage", "## Normalization rules", "## Provenance"].map((h) => report.indexOf(h))
    expect(order.every((i, k) => i >= 0 && (k === 0 || i > (order[k - 1] ?? 0)))).toBe(true)
    expect(report).toContain("| run then stop | 2 | runs.stop | status | `$.response.status` | `404` | `409` |")
    expect(report).toContain("registered: T1: test")
    const junit = await readFile(written.junit, "utf8")
    expect(junit).toContain('failures="1"')
    expect(junit).toContain("step 2 runs.stop status $.response.status: real 404 ≠ emulator 409")
  })
})
