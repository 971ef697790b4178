/**
 * A section of a REPORT.md owned by one generator, between `<!-- name:start -->` and
 * `<!-- name:end -->`: replaced in place, or appended when absent; nothing else in the file changes.
 * writeEvidence keeps such sections when it rewrites the report.
 */
import { FileSystem } from "@effect/platform"
import { Effect } from "effect"

export const replaceReportSection = (text: string, name: string, markdown: string): string => {
  const start = `<!-- ${name}:start -->`
  const end = `<!-- ${name}:end -->`
  const block = `${start}\n${markdown.trimEnd()}\n${end}`
  const a = text.indexOf(start)
  const b = text.indexOf(end)
  if (a >= 0 && b > a) return text.slice(0, a) + block + text.slice(b + end.length)
  return `${text}${text === "" || text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n"}${block}\n`
}

export const writeReportSection = (path: string, name: string, markdown: string): Effect.Effect<void, never, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs.readFileString(path).pipe(Effect.orElseSucceed(() => ""))
    yield* fs.writeFileString(path, replaceReportSection(text, name, markdown))
  }).pipe(Effect.orDie)
