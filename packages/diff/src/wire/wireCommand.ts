/**
 * `oracle wire`: the raw-socket comparison. A sample of scenarios is played on the real gateway and
 * on the emulator over a socket (rawHttp/rawFetch.ts), every request written as the same HTTP/1.1
 * bytes on both sides (same Host, key, headers in the same order, one request per connection).
 * Each answer keeps its head as it came — the status line with its reason phrase, the header names
 * in wire order with their casing, and the framing (Content-Length, chunked, or delimited by the
 * close) — which fetch hides. The two runs are then judged like any comparison's (judgeRuns:
 * normalizer, differ, register, learned noise), the heads included, into common evidence.
 *
 *   oracle wire [--scenario FILE ...] [--pin 0.19.0] --out DIR
 */
import { join } from "node:path"
import { startEmulator } from "@hermetic/emulator"
import { FileSystem, Path } from "@effect/platform"
import { Effect } from "effect"
import { type ParsedArgs, pinOf } from "../cli/args.js"
import { loadScenarioFiles } from "../cli/loadInputs.js"
import { builtinScenarioDir } from "../scenario/ScenarioFile.js"
import { loadOracleRunner } from "../target/oracleRunner.js"
import { CouldNotRun } from "../cli/CliError.js"
import type { CommandResult } from "../cli/OracleDocument.js"
import { progress } from "../cli/progress.js"
import { provenanceFor } from "../cli/provenanceFor.js"
import { exitCodeOf, firedCounts } from "../compare/compareAll.js"
import { type CompareSettings, errorComparison, judgeRuns, type ScenarioComparison } from "../compare/judgeRuns.js"
import { diffRuns } from "../diff/diffRuns.js"
import { loadRegister } from "../diff/DivergenceRegister.js"
import { assembleEvidence } from "../evidence/assembleEvidence.js"
import { repoRoot } from "../evidence/provenance.js"
import { writeEvidence } from "../evidence/writeEvidence.js"
import { LearnedNoise } from "../noise/LearnedNoise.js"
import { normalizeRun } from "../normalize/normalizeRun.js"
import { rawFetch } from "../rawHttp/rawFetch.js"
import { runScenario } from "../runner/runScenario.js"
import type { Scenario } from "../scenario/Scenario.js"
import { emulatorDriver } from "../target/emulatorDriver.js"
import { connectionProbes } from "./connectionProbeCommand.js"
import { gatewayDriver } from "../target/GatewayTarget.js"
import { fetchEffect, type LiveDriver } from "../target/LiveDriver.js"
import { liveTarget } from "../target/liveTarget.js"
import type { Target, TargetInfo } from "../target/Target.js"

/** The default sample: one scenario file per family of answers (JSON, SSE, errors, 413, 503, CORS, jobs, sessions). */
export const WIRE_SAMPLE = [
  "health.json",
  "discovery.json",
  "chat-completions.json",
  "responses-stream.json",
  "runs-held-events.json",
  "runs-not-found.json",
  "runs-validation.json",
  "sessions.json",
  "jobs.json",
  "http-cors-preflight-and-profile-prefix.json",
  "http-body-limit-413.json",
  "http-draining-503.json"
]

/**
 * Both sides played, the emulator first (its begin() opens the namespace whose header both sides
 * then carry, so the request bytes agree), the real gateway twice (what differs between its own
 * two runs is learned noise, as in `oracle compare`), then judged.
 */
const compareOverSockets = (real: Target, emulator: Target, scenario: Scenario, file: string | undefined, settings: CompareSettings, noise: LearnedNoise) =>
  Effect.gen(function*() {
    const emuRun = yield* runScenario(emulator, scenario)
    const realRun = yield* runScenario(real, scenario)
    const again = yield* runScenario(real, scenario)
    const realNorm = normalizeRun(realRun, scenario, { clock: "running" })
    noise.learn(scenario.name, diffRuns(realNorm, normalizeRun(again, scenario, { clock: "running" })))
    return judgeRuns(realRun, emuRun, scenario, settings, { clock: "running", referenceNormalized: realNorm, ...(file !== undefined ? { file } : {}) })
  }).pipe(Effect.catchAll((e) => Effect.succeed(errorComparison(scenario, file, e.message))))

const overSocket = (base: string) => (path: string, init: RequestInit) => fetchEffect((url, i) => rawFetch(url, i), `${base}${path}`, init)

/**
 * The emulator's driver as `oracle wire` plays it: every request over a raw socket, with the
 * emulator's namespace header and Connection: close (the real gateway's side gets the same
 * headers). Also what wire.replay.test.ts replays the recorded scenarios with.
 */
export const emulatorOverSocket = (baseUrl: string, apiKey: string): LiveDriver => {
  const base = emulatorDriver({ fetch: (u, i) => fetch(u, i), baseUrl, apiKey, pollIntervalMs: 10, sseDeadlineMs: 5_000 })
  return { ...base, fetch: overSocket(baseUrl), hiddenHeaders: () => ({ connection: "close", ...base.hiddenHeaders() }) }
}

export const wireCommand = (args: ParsedArgs) =>
  args.values["connection-probes"] === true ? connectionProbesCommand(args) : scenariosOverSockets(args)

const connectionProbesCommand = (args: ParsedArgs) =>
  Effect.gen(function*() {
    const pin = yield* pinOf(args)
    const out = args.values.out ?? join(repoRoot(), "evidence", "wire")
    return yield* Effect.tryPromise({ try: () => connectionProbes(pin, out), catch: (e) => new CouldNotRun({ message: `wire: ${e instanceof Error ? e.message : String(e)}` }) })
  })

const scenariosOverSockets = (args: ParsedArgs) =>
  Effect.gen(function*() {
    const startedAt = new Date().toISOString()
    const t0 = performance.now()
    const pin = yield* pinOf(args)
    // the runner first: without it, say so before reading scenarios or printing a start line
    const { scopedGateway } = yield* loadOracleRunner("oracle wire")
    const out = args.values.out ?? join(repoRoot(), "evidence", "wire")
    const files = args.values.scenario ?? WIRE_SAMPLE.map((f) => `${builtinScenarioDir()}${f}`)
    const inputs = yield* loadScenarioFiles(files, "strict")
    const register = yield* loadRegister()
    progress(`wire: starting the real ${pin} gateway…`)
    const gw = yield* scopedGateway({ pin, launcher: "process", clock: {}, progress: (l) => progress(`gateway: ${l}`) })
    const fs = yield* FileSystem.FileSystem
    const configFile = (yield* Path.Path).join(gw.hermesHome, "config.yaml")
    const pristineConfig = yield* Effect.orDie(fs.readFileString(configFile))
    // the emulator takes the gateway's key, so the Authorization bytes are the same on both sides
    const emu = yield* Effect.acquireRelease(
      Effect.promise(() => startEmulator({ hermesVersion: pin, apiKey: gw.apiKey, port: 0 })),
      (e) => Effect.promise(() => e.close())
    )
    const emuDriver = emulatorOverSocket(emu.url, gw.apiKey)
    // both sides get the emulator's namespace header (the gateway ignores it) and Connection: close
    const hidden = emuDriver.hiddenHeaders
    const realDriver: LiveDriver = { ...gatewayDriver(gw, fs, configFile, pristineConfig), fetch: overSocket(gw.baseUrl), hiddenHeaders: hidden }
    const info = (real: boolean): TargetInfo => ({
      kind: real ? "gateway-process" : "emulator-http",
      pin,
      real,
      clock: "running",
      description: real ? `real Hermes ${pin} gateway (process launcher), raw socket` : `emulator ${pin} over HTTP (node:http), raw socket`
    })
    const real = liveTarget(info(true), realDriver)
    const emulator = liveTarget(info(false), emuDriver)
    const noise = new LearnedNoise()
    const settings = { register, pin, noise }
    const comparisons: Array<ScenarioComparison> = []
    for (const input of inputs) {
      const judged = yield* compareOverSockets(real, emulator, input.scenario, input.file, settings, noise)
      comparisons.push(judged)
      const exchanges = judged.evidence.steps.reduce((n, st) => n + (st.candidate?.exchanges.length ?? 0), 0)
      progress(`wire: ${input.scenario.name}: ${exchanges} exchanges, ${judged.evidence.verdict}`)
    }
    const provenance = yield* provenanceFor(pin, "process", true, 0, undefined)
    const evidence = assembleEvidence({
      scenarios: comparisons.map((c) => c.evidence),
      fired: firedCounts(comparisons),
      noise: { method: "each scenario played twice on the real gateway (shared gateway); what differed between the two runs is noise", observations: noise.observations },
      register,
      clock: "running",
      provenance: { ...provenance, pin, reference: { ...real.info }, candidate: { ...emulator.info }, startedAt, finishedAt: new Date().toISOString() },
      wallSeconds: (performance.now() - t0) / 1000
    })
    const written = yield* writeEvidence(evidence, out, `wire-${pin}`)
    const heads = comparisons.flatMap((c) => c.evidence.steps.flatMap((st) => st.differences)).filter((d) => d.kind === "status-line" || d.kind === "header-names" || d.kind === "framing")
    const { summary } = evidence
    const text = `wire: ${summary.scenarios} scenarios, ${summary.exchanges} exchanges over raw sockets: ${summary.equal} equal, ${summary.tolerated} tolerated, ${summary.divergent} divergent, ${summary.errors} not compared; ` +
      `${heads.length} head differences (${heads.filter((d) => d.classification === "divergence").length} divergences)\nevidence: ${written.json}\n`
    return { exitCode: exitCodeOf(evidence), text } satisfies CommandResult
  })
