/** Evidence files read back (for merge and report): a file, or every evidence JSON in a directory; `.json.gz` is read too (large campaigns are committed compressed). */
import { readdir, readFile, stat } from "node:fs/promises"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { Data, Effect, ParseResult, Schema } from "effect"
import { Evidence } from "./Evidence.js"

export class EvidenceFileError extends Data.TaggedError("EvidenceFileError")<{ readonly file: string; readonly reason: string }> {
  override get message(): string {
    return `${this.file}: ${this.reason}`
  }
}

const readText = async (file: string): Promise<string> => (file.endsWith(".gz") ? gunzipSync(await readFile(file)).toString("utf8") : readFile(file, "utf8"))

const isJsonFile = (name: string) => name.endsWith(".json") || name.endsWith(".json.gz")

export const readEvidenceFile = (file: string): Effect.Effect<Evidence, EvidenceFileError> =>
  Effect.tryPromise({ try: async () => JSON.parse(await readText(file)) as unknown, catch: (e) => new EvidenceFileError({ file, reason: String(e) }) }).pipe(
    Effect.flatMap((json) =>
      Schema.decodeUnknown(Evidence)(json).pipe(Effect.mapError((e) => new EvidenceFileError({ file, reason: `not hermetic evidence: ${ParseResult.TreeFormatter.formatErrorSync(e)}` })))
    )
  )

const isEvidenceJson = (json: unknown) => typeof json === "object" && json !== null && (json as { schema?: unknown }).schema === "hermetic/evidence"

/** A file is read as evidence; a directory contributes every `*.json` in it that says it is evidence. */
export const readEvidencePaths = (paths: ReadonlyArray<string>): Effect.Effect<Array<{ file: string; evidence: Evidence }>, EvidenceFileError> =>
  Effect.forEach(paths, (path) =>
    Effect.gen(function*() {
      const info = yield* Effect.tryPromise({ try: () => stat(path), catch: (e) => new EvidenceFileError({ file: path, reason: String(e) }) })
      const files = info.isDirectory()
        ? (yield* Effect.promise(() => readdir(path))).filter(isJsonFile).sort().map((f) => join(path, f))
        : [path]
      const found: Array<{ file: string; evidence: Evidence }> = []
      for (const file of files) {
        if (info.isDirectory()) {
          const json = yield* Effect.promise(() => readText(file).then((t) => JSON.parse(t) as unknown).catch(() => undefined))
          if (!isEvidenceJson(json)) continue
        }
        found.push({ file, evidence: yield* readEvidenceFile(file) })
      }
      if (found.length === 0) return yield* new EvidenceFileError({ file: path, reason: "holds no hermetic evidence JSON" })
      return found
    })
  ).pipe(Effect.map((lists) => lists.flat()))
