/** Reading and writing cassettes under fixtures/<pin>/. */
import { existsSync } from "node:fs"
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises"
import { join, resolve } from "node:path"
import { Data, Effect, ParseResult, Schema } from "effect"
import { stableStringify } from "../json/stableStringify.js"
import { Cassette, cassetteSlug } from "./Cassette.js"

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

export const writeCassette = async (cassette: Cassette, dir: string): Promise<string> => {
  const target = join(dir, cassette.pin)
  await mkdir(target, { recursive: true })
  const file = join(target, `${cassetteSlug(cassette.scenario.name)}.json`)
  // the scenario stays as written: its request bodies are sent in that key order
  await writeFile(file, stableStringify(Schema.encodeSync(Cassette)(cassette), ["scenario"]))
  return file
}

export const readCassette = (file: string): Effect.Effect<Cassette, InvalidCassette> =>
  Effect.tryPromise({ try: () => readFile(file, "utf8"), catch: (e) => new InvalidCassette({ file, reason: String(e) }) }).pipe(
    Effect.flatMap((text) => Effect.try({ try: () => JSON.parse(text) as unknown, catch: (e) => new InvalidCassette({ file, reason: `not JSON: ${String(e)}` }) })),
    Effect.flatMap((json) =>
      Schema.decodeUnknown(Cassette)(json).pipe(Effect.mapError((e) => new InvalidCassette({ file, reason: ParseResult.TreeFormatter.formatErrorSync(e) })))
    )
  )

/** Every cassette of a pin (fixtures/<pin>/*.json), sorted. */
export const cassetteFiles = async (dir: string, pin: string): Promise<Array<string>> => {
  try {
    return (await readdir(join(dir, pin))).filter((f) => f.endsWith(".json")).sort().map((f) => resolve(join(dir, pin, f)))
  } catch {
    return []
  }
}
