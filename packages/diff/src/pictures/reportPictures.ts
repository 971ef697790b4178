/**
 * The pictures REPORT.md embeds, written as SVG files next to it: the coverage heat map always,
 * the benchmark curves when bench.json / workers-bench.json sit in the same directory. Returns
 * the Markdown that shows them.
 */
import { readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import type { Evidence } from "../evidence/Evidence.js"
import { benchPictures, type Picture, workersPicture } from "./benchPictures.js"
import { coverageHeatmap } from "./coverageHeatmap.js"

const readJson = async (file: string): Promise<unknown> => {
  try {
    return JSON.parse(await readFile(file, "utf8")) as unknown
  } catch {
    return undefined
  }
}

export const reportPictures = async (evidence: Evidence, dir: string): Promise<string> => {
  const pictures: Array<Picture> = [
    {
      file: "coverage.svg",
      alt: "coverage heat map: operation by HTTP status",
      svg: coverageHeatmap(evidence.coverage, `Coverage, Hermes ${evidence.provenance.pin}: operation × status (${evidence.summary.scenarios} scenarios)`)
    },
    ...benchPictures(await readJson(join(dir, "bench.json")))
  ]
  const workers = workersPicture(await readJson(join(dir, "workers-bench.json")))
  if (workers !== undefined) pictures.push(workers)
  for (const p of pictures) await writeFile(join(dir, p.file), p.svg)
  return ["## Pictures", "", ...pictures.flatMap((p) => [`![${p.alt}](${p.file})`, ""])].join("\n")
}
