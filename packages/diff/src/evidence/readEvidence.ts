/** Evidence files read back (for merge and report): a file, or every evidence JSON in a directory; `.json.gz` is read too (large campaigns are committed compressed). */
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { FileSystem } from "@effect/platform"
import { Data, Effect, ParseResult, Schema } from "effect"
import { Evidence } from "./Evidence.js"

export class EvidenceFileError extends Data.TaggedError("EvidenceFileError")<{ readonly file: string; readonly reason: string }> {
  override get message(): string {
    return `${this.file}: ${this.reason}`
  }
}

/** The file's JSON (gunzipped first when it ends in .gz). */
const readJson = (file: string): Effect.Effect<unknown, EvidenceFileError, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFile(file)).pipe(
    Effect.mapError((e) => new EvidenceFileError({ file, reason: e.message })),
    Effect.flatMap((bytes) =>
      Effect.try({
        try: () => JSON.parse(file.endsWith(".gz") ? gunzipSync(bytes).toString("utf8") : new TextDecoder().decode(bytes)) as unknown,
        catch: (e) => new EvidenceFileError({ file, reason: String(e) })
      })
    )
  )

const isJsonFile = (name: string) => name.endsWith(".json") || name.endsWith(".json.gz")

export const readEvidenceFile = (file: string): Effect.Effect<Evidence, EvidenceFileError, FileSystem.FileSystem> =>
  readJson(file).pipe(
    Effect.flatMap((json) =>
      Schema.decodeUnknown(Evidence)(json).pipe(Effect.mapError((e) => new EvidenceFileError({ file, reason: `not hermetic evidence: ${ParseResult.TreeFormatter.formatErrorSync(e)}` })))
    )
  )

const isEvidenceJson = (json: unknown) => typeof json === "object" && json !== null && (json as { schema?: unknown }).schema === "hermetic/evidence"

/** A file is read as evidence; a directory contributes every `*.json` in it that says it is evidence. */
export const readEvidencePaths = (paths: ReadonlyArray<string>): Effect.Effect<Array<{ file: string; evidence: Evidence }>, EvidenceFileError, FileSystem.FileSystem> =>
  Effect.forEach(paths, (path) =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const info = yield* fs.stat(path).pipe(Effect.mapError((e) => new EvidenceFileError({ file: path, reason: e.message })))
      const directory = info.type === "Directory"
      const files = directory
        ? (yield* Effect.orDie(fs.readDirectory(path))).filter(isJsonFile).sort().map((f) => join(path, f))
        : [path]
      const found: Array<{ file: string; evidence: Evidence }> = []
      for (const file of files) {
        if (directory) {
          const json = yield* readJson(file).pipe(Effect.orElseSucceed(() => undefined))
          if (!isEvidenceJson(json)) continue
        }
        found.push({ file, evidence: yield* readEvidenceFile(file) })
      }
      if (found.length === 0) return yield* new EvidenceFileError({ file: path, reason: "holds no hermetic evidence JSON" })
      return found
    })
  ).pipe(Effect.map((lists) => lists.flat()))
