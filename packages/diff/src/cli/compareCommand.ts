/**
 * `oracle compare`: the reference (real gateway or its cassettes) against the emulator on the
 * same pin, over the scenario files plus N generated scenarios; writes the evidence, prints a
 * summary table; exit 0 / 1 / 2.
 */
import { join } from "node:path"
import { Effect } from "effect"
import { buildEvidence, compareAll, exitCodeOf, type ScenarioInput } from "../compare/compareAll.js"
import { compareScenario } from "../compare/compareScenario.js"
import { loadRegister } from "../diff/DivergenceRegister.js"
import { repoRoot } from "../evidence/provenance.js"
import { writeEvidence } from "../evidence/writeEvidence.js"
import { searchCounterexample } from "../generate/searchCounterexample.js"
import { LearnedNoise } from "../noise/LearnedNoise.js"
import { emulatorInProcessTarget } from "../target/EmulatorTargets.js"
import type { Target } from "../target/Target.js"
import { emulatorOptionsFor } from "../profile/GatewayProfile.js"
import { intFlag, type ParsedArgs, pinOf, profileOf } from "./args.js"
import { UsageError } from "./CliError.js"
import { loadCassettes, loadScenarioFiles } from "./loadInputs.js"
import { progress } from "./progress.js"
import { provenanceFor } from "./provenanceFor.js"
import { realReference } from "./referenceTarget.js"
import { summaryTable } from "./summaryTable.js"

/** The evidence's description of a cassette comparison: every scenario has its own cassette target. */
const cassettesAsOne = (inputs: ReadonlyArray<ScenarioInput>, pin: string): Target => {
  const first = inputs[0]?.reference as Target
  return { ...first, info: { ...first.info, description: `${inputs.length} cassettes under fixtures/${pin}/ (recorded from the real ${pin} gateway)` } }
}

export const compareCommand = (args: ParsedArgs) =>
  Effect.gen(function*() {
    const pin = pinOf(args)
    const profile = profileOf(args)
    const kind = args.values.target ?? "process"
    if (kind !== "process" && kind !== "container" && kind !== "cassette") throw new UsageError({ message: `--target is process, container or cassette, not ${kind}` })
    const runs = intFlag(args, "runs", 0)
    const seed = intFlag(args, "seed", Math.floor(Math.random() * 2 ** 31))
    const out = args.values.out ?? join(repoRoot(), "evidence")
    const register = yield* Effect.promise(() => (args.values.register ? loadRegister(args.values.register) : loadRegister()))
    const files = args.values.scenario ?? []

    let inputs: Array<ScenarioInput>
    let reference: Target | undefined
    if (kind === "cassette") {
      inputs = [...(yield* loadCassettes(pin, files, profile))]
      if (runs > 0) progress("--runs is ignored with --target cassette: generated scenarios were never recorded")
    } else {
      inputs = [...(yield* loadScenarioFiles(files, profile))]
      progress(`starting the real ${pin} gateway (${kind} launcher, ${profile} profile)…`)
      reference = yield* realReference(pin, kind, args.values.source, profile)
    }
    const candidate = yield* emulatorInProcessTarget({ pin, emulatorOptions: emulatorOptionsFor(profile) })
    const learn = !args.values["no-noise"]
    const noiseMethod = !learn
      ? "not learned (--no-noise)"
      : kind === "cassette"
        ? "from the two runs recorded in each cassette (where a cassette has two)"
        : "each scenario played twice on the real gateway; what differed between the two runs is noise"
    progress(`comparing ${inputs.length} scenarios on pin ${pin}: ${kind} vs emulator in process`)
    const t0 = Date.now()
    const startedAt = new Date().toISOString()
    const noise = learn ? new LearnedNoise() : undefined
    const context = {
      // with cassettes every input carries its own reference; the evidence names them together
      reference: reference ?? cassettesAsOne(inputs, pin),
      candidate,
      register,
      ...(noise !== undefined ? { noise } : {}),
      noiseMethod,
      provenance: yield* provenanceFor(pin, kind, kind !== "cassette", runs, runs > 0 ? seed : undefined)
    }
    const line = (done: number, total: number | string, verdict: string, name: string, error?: string) =>
      progress(`${done}/${total} [${((Date.now() - t0) / 1000).toFixed(1)}s] ${verdict.padEnd(9)} ${name}${error !== undefined ? ` — ${error}` : ""}`)
    const { comparisons } = yield* compareAll({
      ...context,
      scenarios: inputs,
      progress: (done, total, c) => line(done, total, c.evidence.verdict, c.evidence.name, c.evidence.error)
    })
    const all = [...comparisons]
    if (runs > 0 && reference !== undefined) {
      const real = reference
      progress(`generating up to ${runs} scenarios with seed ${seed} (again: oracle compare --seed ${seed} --runs ${runs})`)
      const settings = { register, pin, ...(noise !== undefined ? { noise } : {}) }
      let n = 0
      const search = yield* Effect.promise(() =>
        searchCounterexample({
          pin,
          profile,
          seed,
          numRuns: runs,
          out,
          compare: async (scenario) => {
            const c = await Effect.runPromise(compareScenario(real, candidate, scenario, settings))
            line(++n, "gen", c.evidence.verdict, `${scenario.steps.length} steps: ${String(scenario.origin?.generator ?? "")}`.slice(0, 140))
            return c
          }
        })
      )
      all.push(...search.compared.filter((c) => c.evidence.verdict !== "divergent"))
      if (search.failure !== undefined) {
        all.push(search.failure.comparison)
        progress(`counterexample (seed ${seed}, path ${search.failure.path}, ${search.failure.shrinks} shrinks): ${search.failure.file ?? ""}`)
        progress(`replay it: oracle replay ${search.failure.file ?? ""} --target ${kind}`)
      }
    }
    const evidence = buildEvidence(all, context, startedAt)
    const written = yield* Effect.promise(() => writeEvidence(evidence, out))
    process.stdout.write(summaryTable(evidence))
    process.stdout.write(`evidence: ${written.json}\nreport:   ${written.report}\njunit:    ${written.junit}\n`)
    return exitCodeOf(evidence)
  })
