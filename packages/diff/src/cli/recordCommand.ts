/**
 * `oracle record`: each scenario (files, then generated from a seed) played on the real gateway,
 * written as a cassette under fixtures/<pin>/. Each play gets a fresh gateway by default, so a
 * recording holds what the scenario did and nothing an earlier one left behind.
 */
import { join } from "node:path"
import { Effect } from "effect"
import { fixturesDir, writeCassette } from "../cassette/cassetteFiles.js"
import { recordCassette } from "../cassette/recordCassette.js"
import { generateScenarios } from "../generate/generateScenarios.js"
import { emulatorGitState, installedVersions, sourceLockEntry } from "../evidence/provenance.js"
import { intFlag, oneOf, type ParsedArgs, pinOf, profileOf } from "./args.js"
import { UsageError } from "./CliError.js"
import type { CommandResult } from "./OracleDocument.js"
import { loadScenarioFiles } from "./loadInputs.js"
import { progress } from "./progress.js"
import { realReference } from "./referenceTarget.js"

export const recordCommand = (args: ParsedArgs) =>
  Effect.gen(function*() {
    const pin = yield* pinOf(args)
    const profile = yield* profileOf(args)
    const kind = yield* oneOf(args, "target", ["process", "container"], "process")
    const runs = yield* intFlag(args, "runs", 2)
    if (runs !== 1 && runs !== 2) return yield* new UsageError({ command: "record", message: "--runs is 1 or 2 for record" })
    const generate = yield* intFlag(args, "generate", 0)
    if (generate < 0) return yield* new UsageError({ command: "record", message: `--generate wants a count ≥ 0, got ${generate}` })
    const seed = yield* intFlag(args, "seed", Math.floor(Math.random() * 2 ** 31))
    if (args.values.seed !== undefined && generate === 0) return yield* new UsageError({ command: "record", message: "--seed is the seed of --generate N: give both" })
    const out = args.values.out ?? fixturesDir()
    const files = args.values.scenario ?? []
    // generated scenarios alone unless files are named too: the built-in files have cassettes already
    const written = generate > 0 && files.length === 0 ? [] : yield* loadScenarioFiles(files, profile)
    const generated = generateScenarios({ seed, count: generate, pin, profile }).map((scenario) => ({ scenario }))
    const applicable = [...written, ...generated].filter((i) => i.scenario.pins === undefined || i.scenario.pins.includes(pin))
    const fresh = args.values.shared !== true
    progress(`starting the real ${pin} gateway (${kind} launcher${fresh ? ", a fresh gateway per play" : ", shared"})…` + (generate > 0 ? ` ${generate} generated with seed ${seed} (again: --generate ${generate} --seed ${seed})` : ""))
    const target = yield* realReference(pin, kind, { source: args.values.source, profile, fresh })
    const git = yield* emulatorGitState
    const installed = yield* installedVersions(pin)
    const lock = yield* sourceLockEntry(pin)
    for (const [i, input] of applicable.entries()) {
      const t0 = Date.now()
      const cassette = yield* recordCassette(target, input.scenario, runs, {
        launcher: kind,
        hermeticCommit: git.commit,
        ...(installed !== undefined ? { installed } : {}),
        ...(lock !== undefined ? { sourceLock: lock } : {})
      })
      const file = yield* writeCassette(cassette, out)
      progress(`${i + 1}/${applicable.length} recorded ${input.scenario.name} (${Date.now() - t0} ms) → ${file}`)
    }
    return { exitCode: 0, text: `${applicable.length} cassettes written under ${join(out, pin)}/\n` } satisfies CommandResult
  })
