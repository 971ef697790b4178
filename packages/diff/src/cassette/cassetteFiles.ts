/** Reading and writing cassettes under fixtures/<pin>/. */
import { existsSync } from "node:fs"
import { join, resolve } from "node:path"
import { FileSystem } from "@effect/platform"
import { Data, Effect, ParseResult, Schema } from "effect"
import { stableStringify } from "../json/stableStringify.js"
import { Cassette, cassetteFileName } from "./Cassette.js"

export class InvalidCassette extends Data.TaggedError("InvalidCassette")<{ readonly file: string; readonly reason: string }> {
  override get message(): string {
    return `${this.file} is not a valid cassette: ${this.reason}`
  }
}

/**
 * The recorded cassettes: the package's own copy when installed (`npm pack` copies the repository's
 * fixtures/ in, see package.json's prepack), the repository's fixtures/ otherwise.
 */
export const fixturesDir = (): string => {
  const packaged = new URL("../../fixtures/", import.meta.url).pathname
  return existsSync(packaged) ? packaged : new URL("../../../../fixtures/", import.meta.url).pathname
}

/** Writes a cassette to DIR/<pin>/<slug>.json; the file's path. */
export const writeCassette = (cassette: Cassette, dir: string): Effect.Effect<string, never, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const target = join(dir, cassette.pin)
    yield* fs.makeDirectory(target, { recursive: true })
    const file = join(target, cassetteFileName(cassette.scenario))
    // the scenario stays as written: its request bodies are sent in that key order
    yield* fs.writeFileString(file, stableStringify(Schema.encodeSync(Cassette)(cassette), ["scenario"]))
    return file
  }).pipe(Effect.orDie)

export const readCassette = (file: string): Effect.Effect<Cassette, InvalidCassette, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFileString(file)).pipe(
    Effect.mapError((e) => new InvalidCassette({ file, reason: e.message })),
    Effect.flatMap((text) => Effect.try({ try: () => JSON.parse(text) as unknown, catch: (e) => new InvalidCassette({ file, reason: `not JSON: ${String(e)}` }) })),
    Effect.flatMap((json) =>
      Schema.decodeUnknown(Cassette)(json).pipe(Effect.mapError((e) => new InvalidCassette({ file, reason: ParseResult.TreeFormatter.formatErrorSync(e) })))
    )
  )

/** Every cassette of a pin (fixtures/<pin>/*.json), sorted. */
export const cassetteFiles = (dir: string, pin: string): Effect.Effect<Array<string>, never, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readDirectory(join(dir, pin))).pipe(
    Effect.map((names) => names.filter((f) => f.endsWith(".json")).sort().map((f) => resolve(join(dir, pin, f)))),
    Effect.orElseSucceed((): Array<string> => [])
  )
