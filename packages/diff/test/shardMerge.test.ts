/**
 * Shards + merge = one unsharded run: the same scenario set (the built-in files plus generated
 * scenarios) compared on emulator targets — once whole on three workers, once as three shards on
 * one worker each, then merged — must give the same verdicts, summary, coverage, rule counts,
 * register hits and JUnit. The candidate is deliberately broken so some verdicts are divergent.
 */
import { NodeContext } from "@effect/platform-node"
import { Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { compareAll, type ScenarioInput, type Worker } from "../src/compare/compareAll.js"
import { scenarioSet, shardOf, type Shard } from "../src/compare/scenarioSet.js"
import { EMPTY_REGISTER } from "../src/diff/DivergenceRegister.js"
import type { Evidence } from "../src/evidence/Evidence.js"
import { mergeEvidence } from "../src/evidence/mergeEvidence.js"
import { renderJUnit } from "../src/evidence/renderJUnit.js"
import { generateScenarios } from "../src/generate/generateScenarios.js"
import { LearnedNoise } from "../src/noise/LearnedNoise.js"
import { builtinScenarioDir, readScenarioFile, scenarioFilesIn } from "../src/scenario/ScenarioFile.js"
import { emulatorInProcessTarget } from "../src/target/EmulatorTargets.js"

type Fetch = (url: string, init: RequestInit) => Promise<Response>

/** Stopping a run that is not live answers 409 instead of 0.19.0's 404; every answer gains a header the register tolerates. */
const broken = (f: Fetch): Fetch => async (url, init) => {
  const res = await f(url, init)
  const headers = new Headers(res.headers)
  headers.set("x-tampered", "1")
  const status = init.method === "POST" && url.endsWith("/stop") && res.status === 404 ? 409 : res.status
  return new Response(res.body, { status, headers })
}

const register = {
  version: 1 as const,
  // an entry that fires, so register hits are part of what must agree
  entries: [{ id: "T-tampered", operation: "*", path: "$.response.headers[\"x-tampered\"]", category: "gap" as const, reason: "test" }]
}

const provenance = { emulatorCommit: "test", emulatorDirty: false, node: process.version, runs: 12, seed: 5, command: "vitest" }

const worker = Effect.gen(function*() {
  return {
    reference: yield* emulatorInProcessTarget({ pin: "0.19.0" }),
    candidate: yield* emulatorInProcessTarget({ pin: "0.19.0", wrapFetch: broken })
  } satisfies Worker
})

const compare = (inputs: ReadonlyArray<ScenarioInput>, workers: number, shard?: Shard) =>
  Effect.gen(function*() {
    const [main, ...more] = yield* Effect.forEach(Array.from({ length: workers }), () => worker)
    return (yield* compareAll({
      ...(main as Worker),
      moreWorkers: more,
      scenarios: inputs,
      register,
      noise: new LearnedNoise(),
      noiseMethod: "the emulator twice",
      provenance: { ...provenance, ...(shard !== undefined ? { shard } : {}) }
    })).evidence
  })

/** What must not depend on how the set was split (times, the wire form with its frame times, and the command line may). */
const verdicts = (e: Evidence) => ({
  scenarios: e.scenarios.map((s) => ({ name: s.name, position: s.position, verdict: s.verdict, steps: s.steps.map(({ raw: _, ...step }) => step), differences: s.differences })),
  summary: { ...e.summary, scenariosPerSecond: undefined, wallSeconds: undefined, throughput: undefined },
  coverage: e.coverage,
  rules: e.normalization.rules,
  noise: e.noise,
  register: e.register
})
/**
 * A clock move while a model call is held is seen by the agent at its next real-time poll of the loop
 * clock (the join slice, agent/AgentLoop.ts), so which poll of the following `until` step first sees
 * it depends on load, and with it the noise the emulator twice learns: not a property of the split.
 */
const racesRealTime = (input: ScenarioInput): boolean => {
  const steps = input.scenario.steps
  return steps.some((s) => "awaitHold" in s) && steps.some((s) => "clock" in s)
}

const junitWithoutTimes = (e: Evidence) => renderJUnit(e).replace(/ time="[^"]*"/g, "").replace(/ timestamp="[^"]*"/g, "")

describe("shards and merge", () => {
  it("merged shards give the verdicts, coverage and JUnit of one unsharded run", async () => {
    const { whole, merged, shardSizes } = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function*() {
          const files = yield* scenarioFilesIn(builtinScenarioDir())
          const loaded = yield* Effect.forEach(files, (file) => Effect.map(readScenarioFile(file), (scenario): ScenarioInput => ({ scenario, file })))
          const set = scenarioSet([...loaded.filter((input) => !racesRealTime(input)), ...generateScenarios({ seed: 5, count: 12, pin: "0.19.0" }).map((scenario) => ({ scenario }))])
          const whole = yield* compare(set, 3)
          const shards = yield* Effect.forEach([1, 2, 3], (index) => compare(shardOf(set, { index, count: 3 }), 1, { index, count: 3 }))
          // the merge does not depend on the order the shards are given in
          return { whole, merged: yield* mergeEvidence([shards[2], shards[0], shards[1]] as Array<Evidence>), shardSizes: shards.map((s) => s.summary.scenarios) }
        })
      ).pipe(Effect.provide(NodeContext.layer))
    )
    expect(whole.summary.scenarios).toBeGreaterThan(20)
    expect(shardSizes.reduce((a, b) => a + b, 0)).toBe(whole.summary.scenarios)
    expect(shardSizes.every((n) => n > 0)).toBe(true)
    // the broken candidate makes some scenarios divergent: a merge that lost them would show here
    expect(whole.summary.divergent).toBeGreaterThan(0)
    expect(merged.summary.divergent).toBe(whole.summary.divergent)
    expect(whole.register[0]?.hits).toBeGreaterThan(0)
    expect(verdicts(merged)).toEqual(verdicts(whole))
    expect(junitWithoutTimes(merged)).toEqual(junitWithoutTimes(whole))
    expect(merged.provenance.mergedFrom?.map((m) => m.shard.index)).toEqual([1, 2, 3])
    expect(whole.provenance.workers).toBe(3)
  }, 120_000)

  it("refuses a missing shard and a shard given twice", async () => {
    const shard = (index: number) =>
      Effect.runPromise(
        Effect.scoped(compare([{ scenario: { version: 1, name: "health", steps: [{ request: { method: "GET", path: "/health", auth: "none" } }] }, position: index - 1 }], 1, { index, count: 2 }))
      )
    const one = await shard(1)
    const reason = (parts: Array<Evidence>) => Either.match(mergeEvidence(parts), { onLeft: (e) => e.reason, onRight: () => "merged" })
    expect(reason([one])).toBe("shard 2/2 missing")
    expect(reason([one, one])).toBe("shard 1 given twice")
    const two = await shard(2)
    expect(Either.getOrThrow(mergeEvidence([one, two])).summary.scenarios).toBe(2)
  })
})
