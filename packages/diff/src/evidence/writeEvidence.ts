/** Writes a comparison's evidence: `<name>.json` (schema-checked), REPORT.md with its SVG pictures, report/index.html, and `<name>.junit.xml`. */
import { join } from "node:path"
import { FileSystem } from "@effect/platform"
import { Effect, Schema } from "effect"
import { Evidence } from "./Evidence.js"
import { renderJUnit } from "./renderJUnit.js"
import { reportPictures } from "../pictures/reportPictures.js"
import { writeHtmlReport } from "../report/writeHtmlReport.js"
import { renderReport } from "./renderReport.js"

export interface WrittenEvidence {
  readonly json: string
  readonly report: string
  readonly html: string
  readonly junit: string
}

/**
 * Sections other tools own inside REPORT.md survive a new comparison: each block between
 * `<!-- name:start -->` and `<!-- name:end -->` (the benchmarks', the client matrix's).
 */
const keptSections = (fs: FileSystem.FileSystem, path: string): Effect.Effect<string> =>
  Effect.map(fs.readFileString(path).pipe(Effect.orElseSucceed(() => "")), (previous) => {
    const kept = [...previous.matchAll(/<!-- ([a-z-]+):start -->[\s\S]*?<!-- \1:end -->/g)].map((m) => m[0])
    return kept.map((section) => `\n${section}\n`).join("")
  })

export const evidenceName = (e: Evidence) => `${e.provenance.pin}-${e.provenance.reference.kind}-vs-${e.provenance.candidate.kind}`

export const writeEvidence = (evidence: Evidence, dir: string, name = evidenceName(evidence)): Effect.Effect<WrittenEvidence, never, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    // encoding through the Schema refuses evidence that does not match what the JSON Schema promises
    const encoded = Schema.encodeSync(Evidence)(evidence)
    yield* fs.makeDirectory(dir, { recursive: true })
    const paths = { json: join(dir, `${name}.json`), report: join(dir, "REPORT.md"), junit: join(dir, `${name}.junit.xml`) }
    yield* fs.writeFileString(paths.json, `${JSON.stringify(encoded, null, 2)}\n`)
    const pictures = yield* reportPictures(evidence, dir)
    const reportMarkdown = renderReport(evidence, pictures) + (yield* keptSections(fs, paths.report))
    yield* fs.writeFileString(paths.report, reportMarkdown)
    const html = yield* writeHtmlReport({ evidence, reportMarkdown }, join(dir, "report"), dir)
    yield* fs.writeFileString(paths.junit, renderJUnit(evidence))
    return { ...paths, html }
  }).pipe(Effect.orDie)
