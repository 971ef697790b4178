/**
 * The pipeline end to end on the emulator alone: the built-in scenarios played in process and over
 * HTTP must come out equal after normalization, and a deliberately wrong answer must not.
 */
import { NodeContext } from "@effect/platform-node"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { compareAll, exitCodeOf } from "../src/compare/compareAll.js"
import { EMPTY_REGISTER } from "../src/diff/DivergenceRegister.js"
import { runScenario } from "../src/runner/runScenario.js"
import type { Scenario } from "../src/scenario/Scenario.js"
import { builtinScenarioDir, readScenarioFile, scenarioFilesIn } from "../src/scenario/ScenarioFile.js"
import { emulatorHttpTarget, emulatorInProcessTarget } from "../src/target/EmulatorTargets.js"

const provenance = { emulatorCommit: "test", emulatorDirty: false, node: process.version, runs: 1, command: "vitest" }
const builtin = scenarioFilesIn(builtinScenarioDir()).pipe(
  Effect.flatMap((files) => Effect.forEach(files, (file) => Effect.map(readScenarioFile(file), (scenario) => ({ scenario, file })))),
  Effect.provide(NodeContext.layer)
)

describe("emulator targets", () => {
  it("in process and over HTTP answer every built-in scenario alike", async () => {
    const result = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function*() {
          const scenarios = yield* builtin
          const reference = yield* emulatorHttpTarget({ pin: "0.19.0" })
          const candidate = yield* emulatorInProcessTarget({ pin: "0.19.0" })
          return yield* compareAll({ reference, candidate, scenarios, register: EMPTY_REGISTER, noiseMethod: "none", provenance })
        })
      )
    )
    // step differences and the scenario's own (the time relations)
    const divergences = result.evidence.scenarios.flatMap((s) =>
      [...s.differences, ...s.steps.flatMap((st) => st.differences)].map((d) => `${s.name}: ${d.kind} ${d.path}`)
    )
    expect(divergences).toEqual([])
    expect(result.evidence.summary.scenarios).toBeGreaterThanOrEqual(10)
    expect(exitCodeOf(result.evidence)).toBe(0)
    const create = result.evidence.coverage.find((r) => r.operation === "runs.create")
    expect(create?.implemented).toBe(true)
    expect(create?.statuses.map((c) => c.status)).toEqual(expect.arrayContaining([202, 400, 401]))
    // the reference is not the real gateway, so nothing counts as verified
    expect(create?.statuses.some((c) => c.verified)).toBe(false)
    // every built-in scenario twice, one side over HTTP: a hang guard, not a speed target (it ran
    // past 30 s at load ~20 on 2 cores, with one worker and with two)
  }, 120_000)

  it("catches a wrong status from a tampered emulator and fails the comparison", async () => {
    const evidence = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function*() {
          const scenario: Scenario = {
            version: 1,
            name: "stop of an unknown run",
            steps: [{ request: { method: "GET", path: "/health", auth: "none" } }, { request: { method: "POST", path: "/v1/runs/run_00000000000000000000000000000000/stop" } }]
          }
          const reference = yield* emulatorInProcessTarget({ pin: "0.19.0" })
          const candidate = yield* emulatorInProcessTarget({
            pin: "0.19.0",
            wrapFetch: (f) => async (url, init) => {
              const res = await f(url, init)
              return url.endsWith("/stop") ? new Response(res.body, { status: 410, headers: res.headers }) : res
            }
          })
          return (yield* compareAll({ reference, candidate, scenarios: [{ scenario }], register: EMPTY_REGISTER, noiseMethod: "none", provenance })).evidence
        })
      )
    )
    expect(exitCodeOf(evidence)).toBe(1)
    expect(evidence.scenarios[0]?.steps[1]?.differences.map((d) => [d.operation, d.kind, d.expected, d.actual, d.classification])).toEqual([
      ["runs.stop", "status", 404, 410, "divergence"]
    ])
  })

  it("records a reference that cannot be resolved as a step error and goes on", async () => {
    const run = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function*() {
          const target = yield* emulatorInProcessTarget({ pin: "0.19.0" })
          return yield* runScenario(target, {
            version: 1,
            name: "bad ref",
            steps: [
              { request: { method: "POST", path: "/v1/runs", body: {} }, as: "r1" },
              { request: { method: "GET", path: "/v1/runs/{r1.run_id}" } },
              { request: { method: "GET", path: "/health", auth: "none" } }
            ]
          })
        })
      )
    )
    expect(run.steps.map((s) => [s.exchanges[0]?.response?.status, s.error])).toEqual([
      [400, undefined],
      [undefined, 'cannot resolve {r1.run_id}: "r1" has no field run_id'],
      [200, undefined]
    ])
  })
  it("binds a named SSE response's frames, so a later step can use an id only the stream carries", async () => {
    const run = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function*() {
          const target = yield* emulatorInProcessTarget({ pin: "0.19.0" })
          return yield* runScenario(target, {
            version: 1,
            name: "streamed response id",
            steps: [
              { script: { turns: [{ replies: [{ text: "streamed" }] }] } },
              { request: { method: "POST", path: "/v1/responses", body: { input: "hi", stream: true } }, as: "s1" },
              { request: { method: "GET", path: "/v1/responses/{s1.frames.0.response.id}" } }
            ]
          })
        })
      )
    )
    const fetched = run.steps[2]?.exchanges[0]?.response
    expect(run.steps[2]?.error).toBeUndefined()
    expect(fetched?.status).toBe(200)
    const body = fetched?.body.kind === "json" ? (JSON.parse(fetched.body.text) as { id: string; status: string }) : undefined
    expect(body?.id).toMatch(/^resp_/)
    expect(body?.status).toBe("completed")
  })
})
