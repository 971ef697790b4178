/** Scenario and cassette files named on the command line (or the defaults), decoded. */
import { Effect } from "effect"
import { cassetteFiles, fixturesDir, readCassette } from "../cassette/cassetteFiles.js"
import type { ScenarioInput } from "../compare/compareAll.js"
import { builtinScenarioDir, readScenarioFile, scenarioFilesIn } from "../scenario/ScenarioFile.js"
import { cassetteTarget } from "../target/CassetteTarget.js"
import { type GatewayProfile, profileOf, scenarioSubdir } from "../profile/GatewayProfile.js"
import { UsageError } from "./CliError.js"

/** The named files, or the profile's built-in scenarios; only those written for the profile. */
export const loadScenarioFiles = (files: ReadonlyArray<string>, profile: GatewayProfile = "strict") =>
  Effect.gen(function*() {
    const list = files.length > 0 ? files : yield* scenarioFilesIn(`${builtinScenarioDir()}${scenarioSubdir(profile)}`)
    const all = yield* Effect.forEach(list, (file) => Effect.map(readScenarioFile(file), (scenario): ScenarioInput => ({ scenario, file })))
    return all.filter((i) => profileOf(i.scenario) === profile)
  })

/** Each cassette becomes a scenario input with its own reference (and its second run for noise). */
export const loadCassettes = (pin: string, files: ReadonlyArray<string>, profile: GatewayProfile = "strict") =>
  Effect.gen(function*() {
    const list = files.length > 0 ? files : yield* cassetteFiles(fixturesDir(), pin)
    if (list.length === 0) {
      return yield* new UsageError({
        message: `no cassettes for pin ${pin} under fixtures/${pin}/ — record them with \`oracle record --pin ${pin}\` on a machine that can start that gateway`
      })
    }
    const inputs = yield* Effect.forEach(list, (file) =>
      Effect.gen(function*() {
        const cassette = yield* readCassette(file)
        if (cassette.pin !== pin) return yield* new UsageError({ message: `${file} was recorded against ${cassette.pin}, not ${pin}` })
        const second = cassette.runs[1]
        return {
          scenario: cassette.scenario,
          file,
          reference: cassetteTarget(cassette, file),
          ...(second !== undefined ? { secondReference: cassetteTarget(cassette, file, second) } : {})
        } satisfies ScenarioInput
      })
    )
    return inputs.filter((i) => profileOf(i.scenario) === profile)
  })
