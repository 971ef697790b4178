/** `oracle record`: each scenario played on the real gateway, written as a cassette under fixtures/<pin>/. */
import { Effect } from "effect"
import { fixturesDir, writeCassette } from "../cassette/cassetteFiles.js"
import { recordCassette } from "../cassette/recordCassette.js"
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
    const out = args.values.out ?? fixturesDir()
    const inputs = yield* loadScenarioFiles(args.values.scenario ?? [], profile)
    const applicable = inputs.filter((i) => i.scenario.pins === undefined || i.scenario.pins.includes(pin))
    progress(`starting the real ${pin} gateway (${kind} launcher)…`)
    const target = yield* realReference(pin, kind, { source: args.values.source, profile })
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
    return { exitCode: 0, text: `${applicable.length} cassettes written under ${out}${pin}/\n` } satisfies CommandResult
  })
