/**
 * The pictures REPORT.md embeds, written as SVG files next to it: the coverage heat map always,
 * the benchmark curves when bench.json / workers-bench.json sit in the same directory. Returns
 * the Markdown that shows them.
 */
import { join } from "node:path"
import { FileSystem } from "@effect/platform"
import { Effect } from "effect"
import type { Evidence } from "../evidence/Evidence.js"
import { benchPictures, type Picture, workersPicture } from "./benchPictures.js"
import { coverageHeatmap } from "./coverageHeatmap.js"

/** The JSON in `file`, undefined when there is none (or it does not parse). */
const readJson = (fs: FileSystem.FileSystem, file: string): Effect.Effect<unknown> =>
  fs.readFileString(file).pipe(
    Effect.flatMap((text) => Effect.try(() => JSON.parse(text) as unknown)),
    Effect.orElseSucceed(() => undefined)
  )

export const reportPictures = (evidence: Evidence, dir: string): Effect.Effect<string, never, FileSystem.FileSystem> => Effect.gen(function*() {
  const fs = yield* FileSystem.FileSystem
  const pictures: Array<Picture> = [
    {
      file: "coverage.svg",
      alt: "coverage heat map: operation by HTTP status",
      svg: coverageHeatmap(evidence.coverage, `Coverage, Hermes ${evidence.provenance.pin}: operation × status (${evidence.summary.scenarios} scenarios)`)
    },
    ...benchPictures(yield* readJson(fs, join(dir, "bench.json")))
  ]
  const workers = workersPicture(yield* readJson(fs, join(dir, "workers-bench.json")))
  if (workers !== undefined) pictures.push(workers)
  for (const p of pictures) yield* Effect.orDie(fs.writeFileString(join(dir, p.file), p.svg))
  return ["## Pictures", "", ...pictures.flatMap((p) => [`![${p.alt}](${p.file})`, ""])].join("\n")
})
