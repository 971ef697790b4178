/**
 * A seeded random sample of the emulator's behaviour lines, as StrykerJS `mutate` ranges
 * (`file:line-line`). The whole scope is ~12,000 mutants — hours on two cores — so a run that must
 * fit in a session mutates the lines of a uniform sample instead and the score it gives is an
 * estimate with a stated confidence interval (mutationReport.ts). Lines that hold no code (blank,
 * comments, imports, lone braces) are not drawn: they carry no mutant.
 *
 * run.ts draws it (`npm run mutation -- --sample 200 --seed 26`).
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { BEHAVIOUR_ROOT, isBehaviourFile } from "./scope.js"

/** A line that can carry a mutant: not blank, not only a comment, an import or punctuation. */
const isCodeLine = (line: string): boolean => {
  const t = line.trim()
  if (t === "" || t.startsWith("//") || t.startsWith("*") || t.startsWith("/*")) return false
  if (t.startsWith("import ") || (t.startsWith("export ") && t.includes(" from "))) return false
  return !/^[\])};,]*$/.test(t)
}

/** mulberry32: a small seeded generator, so a sample can be drawn again from its seed. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const walk = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })

export interface LineSample {
  readonly seed: number
  readonly codeLines: number
  readonly ranges: ReadonlyArray<string>
}

export const sampleLines = (root: string, count: number, seed: number): LineSample => {
  const candidates: Array<string> = []
  for (const file of walk(join(root, BEHAVIOUR_ROOT)).sort()) {
    const rel = relative(root, file)
    if (!isBehaviourFile(rel)) continue
    readFileSync(file, "utf8").split("\n").forEach((line, i) => {
      if (isCodeLine(line)) candidates.push(`${rel}:${i + 1}-${i + 1}`)
    })
  }
  const random = seeded(seed)
  // a partial Fisher–Yates shuffle: the first `count` places are a uniform sample without repeats
  for (let i = 0; i < Math.min(count, candidates.length); i++) {
    const j = i + Math.floor(random() * (candidates.length - i))
    const t = candidates[i] as string
    candidates[i] = candidates[j] as string
    candidates[j] = t
  }
  return { seed, codeLines: candidates.length, ranges: candidates.slice(0, count).sort() }
}

