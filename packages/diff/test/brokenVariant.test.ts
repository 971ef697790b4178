/**
 * Proof that the generator catches a broken emulator and shrinks to a minimal Scenario: the correct
 * emulator is the reference, a variant with one wrong status (stop of a settled run: 409 instead
 * of 404) or one wrong field (a settled run's `output` renamed) is the candidate.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { NodeContext } from "@effect/platform-node"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { compareScenario } from "../src/compare/compareScenario.js"
import { EMPTY_REGISTER } from "../src/diff/DivergenceRegister.js"
import { searchCounterexample } from "../src/generate/searchCounterexample.js"
import { decodeScenarioSync, type Scenario } from "../src/scenario/Scenario.js"
import { emulatorInProcessTarget, type EmulatorTargetOptions } from "../src/target/EmulatorTargets.js"
import type { Target } from "../src/target/Target.js"

type Fetch = (url: string, init: RequestInit) => Promise<Response>

/** Wrong status on one path: stopping a run that is not live answers 409 instead of 0.19.0's 404. */
const wrongStopStatus = (f: Fetch): Fetch => async (url, init) => {
  const res = await f(url, init)
  if (init.method === "POST" && url.endsWith("/stop") && res.status === 404) return new Response(await res.text(), { status: 409, headers: res.headers })
  return res
}

/** Wrong field on another: GET /v1/runs/{id} calls a settled run's `output` `result`. */
const renamedOutput = (f: Fetch): Fetch => async (url, init) => {
  const res = await f(url, init)
  if (init.method !== "GET" || !/\/v1\/runs\/[^/]+$/.test(new URL(url).pathname)) return res
  return new Response((await res.text()).replace('"output": ', '"result": '), { status: res.status, headers: res.headers })
}

let scope: Scope.CloseableScope
let out: string
const target = (options: EmulatorTargetOptions): Promise<Target> => Effect.runPromise(Scope.extend(emulatorInProcessTarget(options), scope))

beforeAll(async () => {
  scope = Effect.runSync(Scope.make())
  out = await mkdtemp(join(tmpdir(), "hermetic-broken-"))
})
afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await rm(out, { recursive: true, force: true })
})

const search = async (wrap: (f: Fetch) => Fetch, seed: number, numRuns = 200) => {
  const reference = await target({ pin: "0.19.0" })
  const candidate = await target({ pin: "0.19.0", wrapFetch: wrap })
  const compareEffect = (scenario: Scenario) => compareScenario(reference, candidate, scenario, { register: EMPTY_REGISTER, pin: "0.19.0" })
  const compare = (scenario: Scenario) => Effect.runPromise(compareEffect(scenario))
  const result = await Effect.runPromise(searchCounterexample({ pin: "0.19.0", seed, numRuns, compare: compareEffect, out }).pipe(Effect.provide(NodeContext.layer)))
  return { result, compare }
}

/** The commands the shrunk scenario was built from (fast-check shrinks the command list). */
const commandsOf = (s: Scenario) => String(s.origin?.generator ?? "").replace(/^commands: /, "").split(", ")

describe("the generator against a deliberately broken emulator", () => {
  it("finds the wrong status and shrinks to a settled run then a stop", async () => {
    const { result, compare } = await search(wrongStopStatus, 1234)
    const failure = result.failure
    expect(failure, "the wrong status went unnoticed").toBeDefined()
    if (failure === undefined) return
    console.log(`seed 1234, path ${failure.path}, ${failure.shrinks} shrinks → ${failure.file}`)
    // the smallest scenario that can show it: one command making a settled run, then the stop
    const commands = commandsOf(failure.scenario)
    expect(commands).toHaveLength(2)
    expect(commands[0]).toMatch(/^(createRun\((text|chunks|error)|concurrentCreates)/)
    expect(commands[1]).toBe("stopRun")
    const ds = failure.comparison.evidence.steps.flatMap((s) => s.differences)
    expect(ds.map((d) => [d.operation, d.kind, d.expected, d.actual])).toEqual([["runs.stop", "status", 404, 409]])
    // the file on disk is a valid Scenario that reproduces the divergence
    const saved = decodeScenarioSync(JSON.parse(await readFile(failure.file ?? "", "utf8")))
    expect(saved.origin).toMatchObject({ seed: 1234, path: failure.path })
    expect((await compare(saved)).evidence.verdict).toBe("divergent")
  })

  it("finds the wrong field and shrinks to one settled run", async () => {
    const { result } = await search(renamedOutput, 99)
    const failure = result.failure
    expect(failure, "the renamed field went unnoticed").toBeDefined()
    if (failure === undefined) return
    const commands = commandsOf(failure.scenario)
    expect(commands).toHaveLength(1)
    expect(commands[0]).toMatch(/^(createRun\((text|chunks)|concurrentCreates)/)
    const ds = failure.comparison.evidence.steps.flatMap((s) => s.differences)
    expect(new Set(ds.map((d) => `${d.kind} ${d.path}`))).toEqual(new Set(["missing-field $.response.body.output", "extra-field $.response.body.result"]))
  })

  it("passes the correct emulator against itself on the same seeds", async () => {
    const { result } = await search((f) => f, 1234, 100)
    expect(result.failure).toBeUndefined()
    expect(result.compared.length).toBe(100)
  })
})
