/** Reading and writing Scenario files; a file that is not a valid Scenario is a typed error with the Schema's message. */
import { join, resolve } from "node:path"
import { FileSystem } from "@effect/platform"
import { Data, Effect, ParseResult, Schema } from "effect"
import { Scenario } from "./Scenario.js"

export class InvalidScenarioFile extends Data.TaggedError("InvalidScenarioFile")<{ readonly file: string; readonly reason: string }> {
  override get message(): string {
    return `${this.file} is not a valid Scenario: ${this.reason}`
  }
}

export const builtinScenarioDir = () => new URL("../../scenarios/", import.meta.url).pathname

export const readScenarioFile = (file: string): Effect.Effect<Scenario, InvalidScenarioFile, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFileString(file)).pipe(
    Effect.mapError((e) => new InvalidScenarioFile({ file, reason: e.message })),
    Effect.flatMap((text) => Effect.try({ try: () => JSON.parse(text) as unknown, catch: (e) => new InvalidScenarioFile({ file, reason: `not JSON: ${String(e)}` }) })),
    Effect.flatMap((json) =>
      Schema.decodeUnknown(Scenario)(json).pipe(
        Effect.mapError((e) => new InvalidScenarioFile({ file, reason: ParseResult.TreeFormatter.formatErrorSync(e) }))
      )
    )
  )

/** Every `*.json` in a directory, sorted by name. */
/** The Scenario files of a directory (`*.json`, sorted, absolute). */
export const scenarioFilesIn = (dir: string): Effect.Effect<Array<string>, never, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readDirectory(dir)).pipe(
    Effect.map((names) => names.filter((f) => f.endsWith(".json")).sort().map((f) => resolve(join(dir, f)))),
    Effect.orDie
  )

export const encodeScenario = (scenario: Scenario): string => `${JSON.stringify(Schema.encodeSync(Scenario)(scenario), null, 2)}\n`
