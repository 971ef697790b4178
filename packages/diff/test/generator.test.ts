/**
 * What the generator reaches: the sequences' length, the exchanges a scenario makes, every clock
 * operation on its profile, restarts with held runs, drains; and the REPORT.md time-mechanism
 * counts, taken from played steps. Fixed seeds throughout.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { generateScenarios } from "../src/generate/generateScenarios.js"
import { MAX_COMMANDS } from "../src/generate/scenarioArbitrary.js"
import { countTimeMechanisms } from "../src/evidence/timeMechanisms.js"
import { compareScenario } from "../src/compare/compareScenario.js"
import { EMPTY_REGISTER } from "../src/diff/DivergenceRegister.js"
import { emulatorInProcessTarget } from "../src/target/EmulatorTargets.js"
import type { Scenario, Step } from "../src/scenario/Scenario.js"
import { initialModel, moveClock, stopStranded } from "../src/generate/GenModel.js"
import { features } from "../src/coverage/emulatorRoutes.js"

const SEED = 2601
const exchangesOf = (s: Scenario) => s.steps.reduce((n, st) => n + ("request" in st ? 1 : "parallel" in st ? st.parallel.length : 0), 0)
const clockOf = (st: Step) => ("clock" in st ? st.clock : undefined)
/** The commands a scenario was built from: its `origin.generator` path, split at commas outside brackets. */
const commandCount = (s: Scenario): number => {
  const path = (s.origin?.generator ?? "").replace(/^commands: /, "")
  let depth = 0
  let count = path === "" ? 0 : 1
  for (const ch of path) {
    if ("([{".includes(ch)) depth++
    else if (")]}".includes(ch)) depth--
    else if (ch === "," && depth === 0) count++
  }
  return count
}

describe("the scenario generator", () => {
  const strict = generateScenarios({ seed: SEED, count: 1000, pin: "0.19.0" })

  it("averages at least 12 exchanges per scenario over 1,000 scenarios", () => {
    const mean = strict.reduce((n, s) => n + exchangesOf(s), 0) / strict.length
    console.log(`mean exchanges per generated scenario (seed ${SEED}, 1,000 scenarios): ${mean.toFixed(2)}`)
    expect(strict).toHaveLength(1000)
    expect(mean).toBeGreaterThanOrEqual(12)
  })

  it("chains up to 30 commands", () => {
    const lengths = strict.map(commandCount)
    expect(MAX_COMMANDS).toBe(30)
    expect(Math.max(...lengths)).toBeGreaterThan(20)
    expect(Math.max(...lengths)).toBeLessThanOrEqual(MAX_COMMANDS)
  })

  it("sets the clock to the past and the future, advances it both ways, crashes with a held run, drains", () => {
    const steps = strict.flatMap((s) => s.steps)
    const clocks = steps.map(clockOf).filter((c) => c !== undefined)
    expect(clocks.some((c) => "set" in c && c.set < 1_750_000_000)).toBe(true)
    expect(clocks.some((c) => "set" in c && c.set > 1_850_000_000)).toBe(true)
    expect(clocks.some((c) => "advance" in c && c.advance < 0)).toBe(true)
    expect(clocks.some((c) => "advance" in c && c.advance > 3600)).toBe(true)
    // the default profile's real gateway cannot freeze
    expect(clocks.some((c) => "freeze" in c)).toBe(false)
    expect(steps.some((st) => "drain" in st)).toBe(true)
    const crashedHeld = strict.some((s) => {
      const path = s.origin?.generator ?? ""
      return /createRun\(hold[^)]*\).*crash/.test(path)
    })
    expect(crashedHeld).toBe(true)
  })

  it("freezes and unfreezes only on the wall-clock profile", () => {
    const wall = generateScenarios({ seed: SEED, count: 300, pin: "0.19.0", profile: "wall-clock" })
    const clocks = wall.flatMap((s) => s.steps).map(clockOf).filter((c) => c !== undefined)
    expect(clocks.some((c) => "freeze" in c && c.freeze)).toBe(true)
    expect(clocks.some((c) => "freeze" in c && !c.freeze)).toBe(true)
    expect(wall.every((s) => s.profile === "wall-clock")).toBe(true)
  })

  it("plays an approval across clock moves on the tools profile", () => {
    const tools = generateScenarios({ seed: SEED, count: 300, pin: "0.19.0", profile: "tools" })
    expect(tools.some((s) => (s.origin?.generator ?? "").includes("tools.approvalAcrossClock(set past"))).toBe(true)
    expect(tools.some((s) => (s.origin?.generator ?? "").includes("tools.approvalAcrossClock(+61 s"))).toBe(true)
  })
})

describe("the generator's model of a stop during a held model call", () => {
  const heldRun = (loop: number) => ({ alias: "r1", phase: "held" as const, hold: "h1", heldLoopHigh: loop, settledAt: 0, eventsRead: false, clockMoved: false })
  it("settles at the slice's end unless the loop clock went back after the reply was held", () => {
    const m = initialModel("0.19.0", features("0.19.0"))
    const r = heldRun(m.loop)
    m.runs.push(r)
    expect(stopStranded(m, r)).toBe(false)
    moveClock(m, 400)
    expect(stopStranded(m, r)).toBe(false)
    moveClock(m, -100_000_000)
    expect(stopStranded(m, r)).toBe(true)
    // a set to the future takes loop time past the slice again
    moveClock(m, 200_000_000)
    expect(stopStranded(m, r)).toBe(false)
  })

  it("never strands on the wall-clock profile (clock moves leave loop time alone) nor for a reply held after the move", () => {
    const wall = initialModel("0.19.0", features("0.19.0"), true)
    const r = heldRun(wall.loop)
    wall.runs.push(r)
    moveClock(wall, -100_000_000)
    expect(stopStranded(wall, r)).toBe(false)
    const m = initialModel("0.19.0", features("0.19.0"))
    moveClock(m, -100_000_000)
    const later = heldRun(m.loop)
    m.runs.push(later)
    expect(stopStranded(m, later)).toBe(false)
  })
})

/** The scenario compared on two in-process emulators: played evidence to count mechanisms in. */
const emulatorAgainstItself = (scenario: Scenario) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function*() {
        const reference = yield* emulatorInProcessTarget({ pin: "0.19.0" })
        const candidate = yield* emulatorInProcessTarget({ pin: "0.19.0" })
        return (yield* compareScenario(reference, candidate, scenario, { register: EMPTY_REGISTER, pin: "0.19.0" })).evidence
      })
    )
  )

describe("REPORT.md's time mechanisms", () => {
  it("are counted from the played steps: a set to the past between a settled run and its next read", async () => {
    const scenario: Scenario = {
      version: 1,
      name: "status across a set to the past",
      steps: [
        { script: { turns: [{ replies: [{ text: "kept" }] }] } },
        { request: { method: "POST", path: "/v1/runs", body: { input: "hi" } }, as: "r1" },
        { request: { method: "GET", path: "/v1/runs/{r1.run_id}" }, until: { terminal: true } },
        { clock: { set: 1_700_000_000 } },
        { request: { method: "GET", path: "/v1/runs/{r1.run_id}" } },
        { clock: { advance: 60 } }
      ]
    }
    const evidence = await emulatorAgainstItself(scenario)
    expect(evidence.verdict).toBe("equal")
    const counts = countTimeMechanisms([evidence], Date.now() / 1000)
    expect(counts["set past"]["run status TTL (sweep)"]).toBe(1)
    expect(counts["set past"]["timestamps"]).toBe(1)
    // the last move is read by nothing after it
    expect(counts["advance forward"]["timestamps"]).toBe(0)
    expect(counts["set future"]["run status TTL (sweep)"]).toBe(0)
    // nothing is stopped after the move
    expect(counts["set past"]["stop during a model call"]).toBe(0)
  })

  it("count a stop during a model call: a run accepted before the move, unsettled, stopped after it", async () => {
    const scenario: Scenario = {
      version: 1,
      name: "stop across a set to the past",
      steps: [
        { script: { turns: [{ replies: [{ text: "held", hold: "h1" }] }] } },
        { request: { method: "POST", path: "/v1/runs", body: { input: "hi" } }, as: "r1" },
        { awaitHold: "h1" },
        { clock: { set: 1_700_000_000 } },
        { request: { method: "POST", path: "/v1/runs/{r1.run_id}/stop" } },
        { release: "h1" },
        { request: { method: "GET", path: "/v1/runs/{r1.run_id}" }, until: { terminal: true } }
      ]
    }
    const evidence = await emulatorAgainstItself(scenario)
    expect(evidence.verdict).toBe("equal")
    const counts = countTimeMechanisms([evidence], Date.now() / 1000)
    expect(counts["set past"]["stop during a model call"]).toBe(1)
    expect(counts["set past"]["run status TTL (sweep)"]).toBe(0)
  })
})
