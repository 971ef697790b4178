/**
 * Cassettes: recorded (here from the emulator over HTTP, standing in for the real gateway), written
 * with stable key order, replayed against the emulator in process; a request the cassette does not
 * hold is an error, never a pass.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { NodeContext } from "@effect/platform-node"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { cassetteFileName } from "../src/cassette/Cassette.js"
import { readCassette, writeCassette } from "../src/cassette/cassetteFiles.js"
import { recordCassette } from "../src/cassette/recordCassette.js"
import { compareAll, exitCodeOf } from "../src/compare/compareAll.js"
import { EMPTY_REGISTER } from "../src/diff/DivergenceRegister.js"
import { LearnedNoise } from "../src/noise/LearnedNoise.js"
import type { Scenario } from "../src/scenario/Scenario.js"
import { cassetteTarget } from "../src/target/CassetteTarget.js"
import { emulatorHttpTarget, emulatorInProcessTarget } from "../src/target/EmulatorTargets.js"

const scenario: Scenario = {
  version: 1,
  name: "Run, poll, read events",
  steps: [
    { script: { turns: [{ replies: [{ text: "abc", chunks: ["a", "bc"] }] }] } },
    // keys out of alphabetical order: the cassette must send them as written
    { request: { method: "POST", path: "/v1/runs", body: { model: "m", input: "hi" } }, as: "r" },
    { request: { method: "GET", path: "/v1/runs/{r.run_id}" }, until: { terminal: true } },
    { request: { method: "GET", path: "/v1/runs/{r.run_id}/events" } }
  ]
}
const provenance = { emulatorCommit: "t", emulatorDirty: false, node: process.version, runs: 1, command: "vitest" }
const dirs: Array<string> = []
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true })
})

describe("cassettes", () => {
  it("a generated scenario's file is named for the seed and path that generate it again; a written one for its name", () => {
    expect(cassetteFileName(scenario)).toBe("run-poll-read-events.json")
    // two generated chains that share their first 80 characters still get files of their own
    const chain = "createSession → ".repeat(10)
    expect(cassetteFileName({ ...scenario, name: `${chain}GET /health (#3)`, origin: { seed: 26101, path: "2" } })).toBe("generated-seed-26101-2.json")
    expect(cassetteFileName({ ...scenario, name: `${chain}GET /v1/models (#4)`, origin: { seed: 26101, path: "3" } })).toBe("generated-seed-26101-3.json")
  })

  it("record, write stably, read back and replay equal against the emulator", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hermetic-cassette-"))
    dirs.push(dir)
    const recorded = await Effect.runPromise(
      Effect.scoped(Effect.flatMap(emulatorHttpTarget({ pin: "0.19.0" }), (t) => recordCassette(t, scenario, 2, { launcher: "emulator-http", hermeticCommit: "t" })))
    )
    const file = await Effect.runPromise(writeCassette(recorded, dir).pipe(Effect.provide(NodeContext.layer)))
    expect(file).toBe(join(dir, "0.19.0", "run-poll-read-events.json"))
    const text = await readFile(file, "utf8")
    // stable: top-level keys sorted; response bodies kept as the exact text received
    expect(Object.keys(JSON.parse(text) as object)).toEqual(["pin", "provenance", "runs", "scenario", "schema", "version"])
    expect(text).toContain('\\"run_id\\": \\"run_')
    const cassette = await Effect.runPromise(readCassette(file).pipe(Effect.provide(NodeContext.layer)))
    expect(cassette.runs).toHaveLength(2)
    const evidence = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function*() {
          const candidate = yield* emulatorInProcessTarget({ pin: "0.19.0" })
          const reference = cassetteTarget(cassette, file)
          const second = cassetteTarget(cassette, file, cassette.runs[1])
          return (yield* compareAll({ reference, candidate, scenarios: [{ scenario, reference, secondReference: second }], register: EMPTY_REGISTER, noise: new LearnedNoise(), noiseMethod: "cassette", provenance })).evidence
        })
      )
    )
    expect(evidence.scenarios[0]?.verdict).toBe("equal")
    expect(exitCodeOf(evidence)).toBe(0)
  })

  it("refuses a request the cassette never recorded (exit 2, not a pass)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hermetic-cassette-"))
    dirs.push(dir)
    const cassette = await Effect.runPromise(
      Effect.scoped(Effect.flatMap(emulatorHttpTarget({ pin: "0.19.0" }), (t) => recordCassette(t, scenario, 1, { launcher: "emulator-http", hermeticCommit: "t" })))
    )
    const changed: Scenario = { ...scenario, steps: scenario.steps.map((s, i) => (i === 1 ? { request: { method: "POST", path: "/v1/runs", body: { input: "other" } }, as: "r" } : s)) }
    const tampered = { ...cassette, scenario: changed }
    const evidence = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function*() {
          const candidate = yield* emulatorInProcessTarget({ pin: "0.19.0" })
          const reference = cassetteTarget(tampered, "tampered.json")
          return (yield* compareAll({ reference, candidate, scenarios: [{ scenario: changed, reference }], register: EMPTY_REGISTER, noiseMethod: "none", provenance })).evidence
        })
      )
    )
    expect(evidence.scenarios[0]?.verdict).toBe("error")
    expect(evidence.scenarios[0]?.error).toContain('unrecorded request at step 1: POST /v1/runs {"input":"other"}')
    expect(exitCodeOf(evidence)).toBe(2)
  })
})
