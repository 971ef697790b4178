/**
 * `oracle compare`: the reference (real gateway or its cassettes) against the emulator on the
 * same pin, over the scenario files plus N generated scenarios — all of them, or one shard — on
 * one or more workers; writes the evidence, prints a summary table; exit 0 / 1 / 2.
 */
import { Effect } from "effect"
import { compareAll, type ScenarioInput } from "../compare/compareAll.js"
import { compareScenario } from "../compare/compareScenario.js"
import { parseShard, scenarioSet, shardOf } from "../compare/scenarioSet.js"
import { loadRegister } from "../diff/DivergenceRegister.js"
import { defaultEvidenceDir } from "../evidence/provenance.js"
import { writeEvidence } from "../evidence/writeEvidence.js"
import { generateScenarios } from "../generate/generateScenarios.js"
import { searchCounterexample } from "../generate/searchCounterexample.js"
import { LearnedNoise } from "../noise/LearnedNoise.js"
import type { Target } from "../target/Target.js"
import { intFlag, oneOf, type ParsedArgs, pinOf, profileOf } from "./args.js"
import { UsageError } from "./CliError.js"
import { loadCassettes, loadScenarioFiles } from "./loadInputs.js"
import { comparisonResult } from "./comparisonResult.js"
import { progress, progressMeter } from "./progress.js"
import { refuseExistingReport } from "./refuseExistingReport.js"
import { provenanceFor } from "./provenanceFor.js"
import { startWorkers } from "./startWorkers.js"

/** The evidence's description of a cassette comparison: every scenario has its own cassette target. Named after the whole set, so shards describe it alike. */
const cassettesAsOne = (inputs: ReadonlyArray<ScenarioInput>, pin: string): Target => {
  const first = inputs[0]?.reference as Target
  return { ...first, info: { ...first.info, description: `${inputs.length} cassettes under fixtures/${pin}/ (recorded from the real ${pin} gateway)` } }
}

export const compareCommand = (args: ParsedArgs) =>
  Effect.gen(function*() {
    const pin = yield* pinOf(args)
    const profile = yield* profileOf(args)
    const kind = yield* oneOf(args, "target", ["process", "container", "cassette"], "process")
    const candidateKind = yield* oneOf(args, "candidate", ["inprocess", "http"], "inprocess")
    const runs = yield* intFlag(args, "runs", 0)
    const seed = yield* intFlag(args, "seed", Math.floor(Math.random() * 2 ** 31))
    const workerCount = yield* intFlag(args, "workers", 1)
    if (workerCount < 1 || workerCount > 16) return yield* new UsageError({ command: "compare", message: `--workers wants 1 to 16, got ${workerCount}` })
    const shard = args.values.shard === undefined ? undefined : parseShard(args.values.shard)
    if (args.values.shard !== undefined && shard === undefined) return yield* new UsageError({ command: "compare", message: `--shard wants i/n with 1 ≤ i ≤ n, got ${args.values.shard}` })
    const out = args.values.out ?? defaultEvidenceDir()
    const register = yield* (args.values.register ? loadRegister(args.values.register) : loadRegister())
    const files = args.values.scenario ?? []
    if (args.values.shared === true && args.values.fresh === true) return yield* new UsageError({ command: "compare", message: "--shared and --fresh exclude each other (fresh is the default)" })
    const fresh = args.values.shared !== true

    // the whole set (files, then generated from the seed), numbered, then this machine's shard of it
    let loaded: Array<ScenarioInput>
    if (kind === "cassette") {
      loaded = [...(yield* loadCassettes(pin, files, profile))]
      if (runs > 0) progress("--runs is ignored with --target cassette: generated scenarios were never recorded")
    } else {
      loaded = [...(yield* loadScenarioFiles(files, profile)), ...generateScenarios({ seed, count: runs, pin, profile }).map((scenario) => ({ scenario }))]
    }
    // after the inputs are known to load, before anything starts
    yield* refuseExistingReport(out, args.values.force)
    const set = scenarioSet(loaded)
    const pick = args.values.pick === undefined ? undefined : Number(args.values.pick)
    if (pick !== undefined && !(Number.isInteger(pick) && pick >= 0 && pick < set.length)) return yield* new UsageError({ command: "compare", message: `--pick wants a position from 0 to ${set.length - 1}, got ${args.values.pick}` })
    // --pick: one scenario of the set by its position, as the HTML report's replay command names it
    const inputs = pick !== undefined ? set.filter((input) => input.position === pick) : shardOf(set, shard)
    const shardText = shard === undefined ? "" : ` (shard ${shard.index}/${shard.count} of ${set.length})`

    const [main, ...moreWorkers] = yield* startWorkers(pin, kind === "cassette" ? cassettesAsOne(set, pin) : kind, workerCount, args.values.source, profile, fresh, candidateKind, !fresh)
    const learn = !args.values["no-noise"]
    const noiseMethod = !learn
      ? "not learned (--no-noise)"
      : kind === "cassette"
        ? "from the two runs recorded in each cassette (where a cassette has two)"
        : `each scenario played twice on the real gateway${fresh ? " (each play on a fresh gateway)" : " (shared gateway; a scenario must leave it as it found it)"}; what differed between the two runs is noise`
    progress(`comparing ${inputs.length} scenarios${shardText} on pin ${pin} (${profile} profile): ${kind} vs emulator ${candidateKind === "http" ? "over HTTP" : "in process"}, ${workerCount} worker(s)` + (runs > 0 && kind !== "cassette" ? `; ${runs} generated with seed ${seed} (again: --seed ${seed} --runs ${runs})` : ""))
    const meter = progressMeter(inputs.length)
    const noise = learn ? new LearnedNoise() : undefined
    const provenance = yield* provenanceFor(pin, kind, kind !== "cassette", runs, runs > 0 ? seed : undefined)
    const { evidence, comparisons } = yield* compareAll({
      ...main,
      moreWorkers,
      scenarios: inputs,
      register,
      ...(noise !== undefined ? { noise } : {}),
      noiseMethod,
      provenance: { ...provenance, ...(shard !== undefined ? { shard } : {}) },
      progress: (done, _total, c) => meter.tick(done, `${c.evidence.verdict.padEnd(9)} ${c.evidence.name}${c.evidence.error !== undefined ? ` — ${c.evidence.error}` : ""}`)
    }).pipe(Effect.ensuring(Effect.sync(meter.end)))

    // the first divergent generated scenario is shrunk from its seed and path to a minimal counterexample
    const failed = comparisons.find((c) => c.evidence.verdict === "divergent" && c.evidence.origin !== undefined && c.evidence.file === undefined)
    const path = failed !== undefined ? (failed.evidence.origin as { path?: unknown }).path : undefined
    if (failed !== undefined && typeof path === "string" && kind !== "cassette" && args.values["no-shrink"] !== true) {
      progress(`shrinking ${failed.evidence.name} (seed ${seed}, path ${path})…`)
      const settings = { register, pin, ...(noise !== undefined ? { noise } : {}) }
      const search = yield* searchCounterexample({ pin, profile, seed, numRuns: 1, path, out, compare: (scenario) => compareScenario(main.reference, main.candidate, scenario, settings) })
      if (search.failure !== undefined) {
        progress(`counterexample (seed ${seed}, path ${search.failure.path}, ${search.failure.shrinks} shrinks): ${search.failure.file ?? ""}`)
        progress(`replay it: oracle replay ${search.failure.file ?? ""} --target ${kind}`)
      } else progress("it did not diverge again when replayed from its path: look at its evidence")
    }
    return comparisonResult("compare", evidence, yield* writeEvidence(evidence, out))
  })
