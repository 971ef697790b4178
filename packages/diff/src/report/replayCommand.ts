/**
 * The command that plays one scenario of an evidence file again: `oracle replay FILE` for a
 * scenario file or cassette, `oracle compare … --pick POSITION` for a generated one (the same
 * seed and count as the run it came from, its shard and worker flags dropped).
 */
import type { Evidence, ScenarioEvidence } from "../evidence/Evidence.js"

const targetOf = (referenceKind: string): string =>
  referenceKind.includes("container") ? "container" : referenceKind.includes("cassette") ? "cassette" : "process"

/** A path under the repository from an absolute one written on some checkout: from packages/ or fixtures/ on. */
export const repoRelative = (file: string): string => {
  const m = /(?:^|\/)((?:packages|fixtures|evidence)\/.*)$/.exec(file)
  return m?.[1] ?? file
}

/** The compare command the evidence was made with: a merged file names its shards' command. */
const compareCommandOf = (e: Evidence): string | undefined => {
  const own = e.provenance.command
  if (/^oracle compare\b/.test(own)) return own
  return e.provenance.mergedFrom?.find((m) => /^oracle compare\b/.test(m.command))?.command
}

const withoutFlags = (command: string, flags: ReadonlyArray<string>): string => {
  const words = command.split(/\s+/)
  const kept: Array<string> = []
  for (let k = 0; k < words.length; k++) {
    const word = words[k] as string
    if (flags.includes(word)) {
      k++
      continue
    }
    kept.push(word)
  }
  return kept.join(" ")
}

export const replayCommand = (e: Evidence, s: ScenarioEvidence, index: number): string => {
  const target = targetOf(e.provenance.reference.kind)
  const pin = e.provenance.pin
  if (s.file !== undefined) return `npm run oracle -- replay ${repoRelative(s.file)} --target ${target} --pin ${pin}`
  const compare = compareCommandOf(e)
  const position = s.position ?? index
  if (compare === undefined) return `npm run oracle -- compare --target ${target} --pin ${pin} --pick ${position}`
  const base = withoutFlags(compare, ["--shard", "--workers", "--out", "--pick"]).replace(/^oracle /, "npm run oracle -- ")
  return `${base} --pick ${position} --out /tmp/hermetic-replay`
}
