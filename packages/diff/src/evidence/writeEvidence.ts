/** Writes a comparison's evidence: `<name>.json` (schema-checked), REPORT.md with its SVG pictures, and `<name>.junit.xml`. */
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Schema } from "effect"
import { Evidence } from "./Evidence.js"
import { renderJUnit } from "./renderJUnit.js"
import { reportPictures } from "../pictures/reportPictures.js"
import { renderReport } from "./renderReport.js"

export interface WrittenEvidence {
  readonly json: string
  readonly report: string
  readonly junit: string
}

/**
 * Sections other tools own inside REPORT.md survive a new comparison: each block between
 * `<!-- name:start -->` and `<!-- name:end -->` (the benchmarks', the client matrix's).
 */
const keptSections = async (path: string): Promise<string> => {
  const previous = await readFile(path, "utf8").catch(() => "")
  const kept = [...previous.matchAll(/<!-- ([a-z-]+):start -->[\s\S]*?<!-- \1:end -->/g)].map((m) => m[0])
  return kept.map((section) => `\n${section}\n`).join("")
}

export const evidenceName = (e: Evidence) => `${e.provenance.pin}-${e.provenance.reference.kind}-vs-${e.provenance.candidate.kind}`

export const writeEvidence = async (evidence: Evidence, dir: string, name = evidenceName(evidence)): Promise<WrittenEvidence> => {
  // encoding through the Schema refuses evidence that does not match what the JSON Schema promises
  const encoded = Schema.encodeSync(Evidence)(evidence)
  await mkdir(dir, { recursive: true })
  const paths = { json: join(dir, `${name}.json`), report: join(dir, "REPORT.md"), junit: join(dir, `${name}.junit.xml`) }
  await writeFile(paths.json, `${JSON.stringify(encoded, null, 2)}\n`)
  const pictures = await reportPictures(evidence, dir)
  await writeFile(paths.report, renderReport(evidence, pictures) + (await keptSections(paths.report)))
  await writeFile(paths.junit, renderJUnit(evidence))
  return paths
}
