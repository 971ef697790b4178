/**
 * The recorded raw-socket evidence replayed against the emulator's node:http server in this
 * process. First `oracle wire`'s scenario run (evidence/live-comparisons/wire/): each scenario played
 * again over raw sockets as the run played it (same request bytes, Connection: close, one request
 * per connection), judged against the real gateway's recorded answers and heads (status line with
 * its reason phrase, header names in wire order, framing) on the shared pipeline. Then the
 * connection probes (`oracle wire --connection-probes`,
 * evidence/live-comparisons/connection-ends/) replayed against the emulator's node:http server in
 * this process: each probe's bytes, step by step on one connection, must get the real 0.19.0
 * gateway's answers (status line, headers but Date, framing, body) and end the connection where
 * it ended it (or keep it where it kept it). Part of the suite that judges the emulator in the
 * mutation score (vitest.mutation.config.ts): the keep-alive decisions of the socket adapter.
 *
 * A replay waits for what was recorded, not for quiet: the recorded answers, then the end, or,
 * where the real gateway kept the connection, a short grace in which no end may come (an early
 * close comes within a millisecond of the answer in this process).
 */
import { readFileSync } from "node:fs"
import { basename } from "node:path"
import { NodeContext } from "@effect/platform-node"
import { startEmulator } from "@hermetic/emulator"
import { Effect, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { judgeRuns } from "../src/compare/judgeRuns.js"
import { DivergenceRegister, registerPath } from "../src/diff/DivergenceRegister.js"
import { readEvidenceFile } from "../src/evidence/readEvidence.js"
import { LearnedNoise } from "../src/noise/LearnedNoise.js"
import { runScenario } from "../src/runner/runScenario.js"
import { builtinScenarioDir, readScenarioFile } from "../src/scenario/ScenarioFile.js"
import { liveTarget } from "../src/target/liveTarget.js"
import { emulatorOverSocket } from "../src/wire/wireCommand.js"
import { CONNECTION_EVIDENCE_FILE, type ConnectionProbeEvidence } from "../src/wire/connectionProbeCommand.js"
import { CONNECTION_PROBES, judgeProbe, playProbe } from "../src/wire/connectionProbes.js"

const PIN = "0.19.0"
const EVIDENCE = new URL(`../../../evidence/live-comparisons/connection-ends/${CONNECTION_EVIDENCE_FILE(PIN)}`, import.meta.url).pathname
const live = JSON.parse(readFileSync(EVIDENCE, "utf8")) as ConnectionProbeEvidence
const register = Schema.decodeUnknownSync(DivergenceRegister)(JSON.parse(readFileSync(registerPath(), "utf8")))
const KEY = "wire-replay-key-0123456789abcdef"
const GRACE_MS = 150
const TIMEOUT_MS = 5_000

const WIRE = new URL(`../../../evidence/live-comparisons/wire/wire-${PIN}.json`, import.meta.url).pathname
const wire = await Effect.runPromise(readEvidenceFile(WIRE).pipe(Effect.provide(NodeContext.layer)))

describe(`the recorded raw-socket scenario run (${wire.provenance.command ?? "oracle wire"}) replayed against the emulator over node:http`, () => {
  it("holds the run's scenarios, every exchange with the real gateway's head", () => {
    expect(wire.scenarios.length).toBe(wire.summary.scenarios)
    const exchanges = wire.scenarios.flatMap((s) => s.steps.flatMap((st) => st.reference?.exchanges ?? []))
    expect(exchanges.length).toBe(wire.summary.exchanges)
    expect(exchanges.filter((e) => e.response?.head === undefined)).toEqual([])
  })

  it.each(wire.scenarios.map((s) => [s.name, s] as const))("%s", async (_, recorded) => {
    if (recorded.file === undefined) throw new Error(`${recorded.name} names no scenario file`)
    // the run's path is the recording machine's; the scenario is the same file of this checkout
    const scenario = await Effect.runPromise(readScenarioFile(`${builtinScenarioDir()}${basename(recorded.file)}`).pipe(Effect.provide(NodeContext.layer)))
    const emulator = await startEmulator({ hermesVersion: PIN, apiKey: KEY, port: 0 })
    try {
      const info = { kind: "emulator-http", pin: PIN, real: false, clock: "running", description: `emulator ${PIN} over HTTP (node:http), raw socket` } as const
      const run = await Effect.runPromise(runScenario(liveTarget(info, emulatorOverSocket(emulator.url, KEY)), scenario))
      // what differed between the real gateway's own two runs is noise, as the live run learned it
      const noise = new LearnedNoise()
      for (const o of wire.noise.observations) if (o.scenario === scenario.name) noise.learn(o.scenario, [o.example])
      const referenceNormalized = {
        steps: recorded.steps.map((st) => st.reference ?? { index: st.index, kind: st.kind, exchanges: [] }),
        relations: recorded.relations.reference,
        fired: new Map<string, number>()
      }
      // the evidence keeps the real answers normalized, not as they came: the reference run has no raw exchanges to show
      const referenceRun = { scenario: scenario.name, target: "gateway-process", pin: PIN, steps: [], durationMs: 0 } as const
      const judged = judgeRuns(referenceRun, run, scenario, { register, pin: PIN, noise }, { clock: "running", referenceNormalized })
      const divergences = judged.evidence.steps.flatMap((st) => st.differences).concat(judged.evidence.differences).filter((d) => d.classification === "divergence")
      expect(divergences.map((d) => `step ${d.step} ${d.operation} ${d.kind} ${d.path}: real ${JSON.stringify(d.expected)}, emulator ${JSON.stringify(d.actual)}`)).toEqual([])
    } finally {
      await emulator.close()
    }
  })
})

let emu: Awaited<ReturnType<typeof startEmulator>>
beforeAll(async () => {
  emu = await startEmulator({ hermesVersion: PIN, apiKey: KEY, port: 0 })
})
afterAll(async () => {
  await emu.close()
})

describe(`the recorded connection probes (${live.command}, real ${live.pin} gateway) replayed against the emulator over node:http`, () => {
  it("holds every probe of the probe list, with the same bytes, and a register entry for each one it names", () => {
    expect(live.probes.map((p) => [p.name, p.steps])).toEqual(CONNECTION_PROBES.map((p) => [p.name, p.steps]))
    const ids = new Set(register.entries.map((e) => e.id))
    for (const p of CONNECTION_PROBES) if (p.registered !== undefined) expect(ids.has(p.registered), p.registered).toBe(true)
  })

  it.each(live.probes.map((p) => [p.name, p] as const))("%s", async (_, recorded) => {
    const probe = CONNECTION_PROBES.find((p) => p.name === recorded.name)
    if (probe === undefined) throw new Error(`no probe named ${recorded.name}`)
    const outcomes = await playProbe(emu.port, probe, KEY, (i) => {
      const outcome = recorded.real[i]
      if (outcome === undefined) throw new Error(`step ${i} has no recorded outcome`)
      return { _tag: "recorded", outcome, graceMs: GRACE_MS, timeoutMs: TIMEOUT_MS }
    })
    if (probe.registered === undefined) expect(outcomes).toEqual(recorded.real)
    // with a register entry, only each answer's status code and the connection's end must agree
    else expect(judgeProbe(probe, recorded.real, outcomes)).not.toBe("different")
  })
})
