/**
 * `oracle compare`: the reference (real gateway or its cassettes) against the emulator on the
 * same pin, over the scenario files plus N generated scenarios; writes the evidence, prints a
 * summary table; exit 0 / 1 / 2.
 */
import { join } from "node:path"
import { Effect } from "effect"
import { compareAll, exitCodeOf, type ScenarioInput } from "../compare/compareAll.js"
import { loadRegister } from "../diff/DivergenceRegister.js"
import { repoRoot } from "../evidence/provenance.js"
import { writeEvidence } from "../evidence/writeEvidence.js"
import { generateScenarios } from "../generate/generateScenarios.js"
import { LearnedNoise } from "../noise/LearnedNoise.js"
import { emulatorInProcessTarget } from "../target/EmulatorTargets.js"
import type { Target } from "../target/Target.js"
import { intFlag, type ParsedArgs, pinOf } from "./args.js"
import { UsageError } from "./CliError.js"
import { loadCassettes, loadScenarioFiles } from "./loadInputs.js"
import { progress } from "./progress.js"
import { provenanceFor } from "./provenanceFor.js"
import { realReference } from "./referenceTarget.js"
import { summaryTable } from "./summaryTable.js"

export const compareCommand = (args: ParsedArgs) =>
  Effect.gen(function*() {
    const pin = pinOf(args)
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
      inputs = [...(yield* loadCassettes(pin, files))]
      if (runs > 0) progress("--runs is ignored with --target cassette: generated scenarios were never recorded")
    } else {
      inputs = [...(yield* loadScenarioFiles(files))]
      if (runs > 0) {
        progress(`generating ${runs} scenarios with seed ${seed} (replay one with: oracle compare --seed ${seed} --runs ${runs})`)
        inputs.push(...generateScenarios({ seed, count: runs, pin }).map((scenario) => ({ scenario })))
      }
      progress(`starting the real ${pin} gateway (${kind} launcher)…`)
      reference = yield* realReference(pin, kind, args.values.source)
    }
    const candidate = yield* emulatorInProcessTarget({ pin })
    const learn = !args.values["no-noise"]
    const noiseMethod = !learn
      ? "not learned (--no-noise)"
      : kind === "cassette"
        ? "from the two runs recorded in each cassette (where a cassette has two)"
        : "each scenario played twice on the real gateway; what differed between the two runs is noise"
    progress(`comparing ${inputs.length} scenarios on pin ${pin}: ${kind} vs emulator in process`)
    const t0 = Date.now()
    const { evidence } = yield* compareAll({
      // with cassettes every input carries its own reference
      reference: reference ?? (inputs[0]?.reference as Target),
      candidate,
      scenarios: inputs,
      register,
      ...(learn ? { noise: new LearnedNoise() } : {}),
      noiseMethod,
      provenance: yield* provenanceFor(pin, kind, kind !== "cassette", runs, runs > 0 ? seed : undefined),
      progress: (done, total, c) => {
        const e = c.evidence
        const secs = ((Date.now() - t0) / 1000).toFixed(1)
        progress(`${done}/${total} [${secs}s] ${e.verdict.padEnd(9)} ${e.name}${e.error !== undefined ? ` — ${e.error}` : ""}`)
      }
    })
    const written = yield* Effect.promise(() => writeEvidence(evidence, out))
    process.stdout.write(summaryTable(evidence))
    process.stdout.write(`evidence: ${written.json}\nreport:   ${written.report}\njunit:    ${written.junit}\n`)
    return exitCodeOf(evidence)
  })
