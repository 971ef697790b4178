/**
 * `oracle replay FILE`: a scenario, counterexample or cassette, played on the emulator (printing
 * the normalized exchanges) or compared against the real gateway or the cassette.
 */
import { FileSystem } from "@effect/platform"
import { Effect, Schema } from "effect"
import { Cassette } from "../cassette/Cassette.js"
import { compareAll, type ScenarioInput } from "../compare/compareAll.js"
import { loadRegister } from "../diff/DivergenceRegister.js"
import { writeEvidence } from "../evidence/writeEvidence.js"
import { LearnedNoise } from "../noise/LearnedNoise.js"
import { normalizeRun } from "../normalize/normalizeRun.js"
import { runScenario } from "../runner/runScenario.js"
import { Scenario } from "../scenario/Scenario.js"
import { cassetteTarget } from "../target/CassetteTarget.js"
import { emulatorHttpTarget, emulatorInProcessTarget } from "../target/EmulatorTargets.js"
import type { Target } from "../target/Target.js"
import { emulatorOptionsFor, profileOf as gatewayProfileOf } from "../profile/GatewayProfile.js"
import { oneOf, type ParsedArgs, pinOf, profileOf } from "./args.js"
import { UsageError } from "./CliError.js"
import { comparisonResult } from "./comparisonResult.js"
import type { CommandResult } from "./OracleDocument.js"
import { progress } from "./progress.js"
import { refuseExistingReport } from "./refuseExistingReport.js"
import { provenanceFor } from "./provenanceFor.js"
import { realReference } from "./referenceTarget.js"

const loadFile = (file: string) =>
  Effect.gen(function*() {
    const text = yield* Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFileString(file)).pipe(Effect.mapError((e) => new UsageError({ message: `${file}: ${e.message}` })))
    const json = yield* Effect.try({ try: () => JSON.parse(text) as unknown, catch: (e) => new UsageError({ message: `${file}: ${String(e)}` }) })
    const asCassette = Schema.decodeUnknownEither(Cassette)(json)
    if (asCassette._tag === "Right") return { cassette: asCassette.right, scenario: asCassette.right.scenario }
    const asScenario = Schema.decodeUnknownEither(Scenario)(json)
    if (asScenario._tag === "Right") return { scenario: asScenario.right }
    return yield* new UsageError({ message: `${file} is neither a Scenario nor a cassette: ${asScenario.left.message}` })
  })

export const replayCommand = (args: ParsedArgs) =>
  Effect.gen(function*() {
    const file = args.positionals[0] as string
    const loaded = yield* loadFile(file)
    const pin = args.values.pin !== undefined || loaded.cassette === undefined ? yield* pinOf(args) : (loaded.cassette.pin as "0.19.0" | "0.21.0")
    const kind = yield* oneOf(args, "target", ["inprocess", "http", "process", "container", "cassette"], "inprocess")
    // the scenario says which gateway it needs; --profile overrides
    const profile = args.values.profile !== undefined ? yield* profileOf(args) : gatewayProfileOf(loaded.scenario)
    const emulatorOptions = emulatorOptionsFor(profile)
    if (kind === "inprocess" || kind === "http") {
      const target = kind === "http" ? yield* emulatorHttpTarget({ pin, emulatorOptions }) : yield* emulatorInProcessTarget({ pin, emulatorOptions })
      const run = yield* runScenario(target, loaded.scenario)
      const normalized = normalizeRun(run, loaded.scenario, { clock: "running" })
      return {
        exitCode: 0,
        text: `${JSON.stringify(normalized.steps, null, 2)}\n`,
        document: { command: "replay-play", exitCode: 0, scenario: loaded.scenario.name, steps: normalized.steps }
      } satisfies CommandResult
    }
    if (args.values.out !== undefined) yield* refuseExistingReport(args.values.out, args.values.force)
    let input: ScenarioInput
    let reference: Target
    if (kind === "cassette") {
      if (loaded.cassette === undefined) return yield* new UsageError({ command: "replay", message: `--target cassette needs a cassette file; ${file} is a scenario` })
      reference = cassetteTarget(loaded.cassette, file)
      const second = loaded.cassette.runs[1]
      input = { scenario: loaded.scenario, file, reference, ...(second !== undefined ? { secondReference: cassetteTarget(loaded.cassette, file, second) } : {}) }
    } else {
      progress(`starting the real ${pin} gateway (${kind} launcher)…`)
      reference = yield* realReference(pin, kind, { source: args.values.source, profile })
      input = { scenario: loaded.scenario, file }
    }
    const candidate = yield* emulatorInProcessTarget({ pin, emulatorOptions })
    const { evidence } = yield* compareAll({
      reference,
      candidate,
      scenarios: [input],
      register: yield* loadRegister(),
      noise: new LearnedNoise(),
      noiseMethod: kind === "cassette" ? "the cassette's two recorded runs" : "the scenario played twice on the real gateway",
      provenance: yield* provenanceFor(pin, kind, kind !== "cassette", 1, undefined)
    })
    const written = args.values.out !== undefined ? yield* writeEvidence(evidence, args.values.out) : undefined
    const differences = evidence.scenarios
      .flatMap((s) => s.steps.flatMap((st) => st.differences))
      .map((d) => `  step ${d.step} ${d.operation} ${d.kind} ${d.path}: real ${JSON.stringify(d.expected)} | emulator ${JSON.stringify(d.actual)} [${d.classification}]\n`)
    return comparisonResult("replay", evidence, written, differences.join(""))
  })
