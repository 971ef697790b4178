/**
 * The action of RESPONSES_DELTA_JOIN (NormalizationRule.ts): adjacent text deltas of one content
 * part become one, and the stream's `sequence_number`s are renumbered from the first one — only
 * where something was joined. The differ's normalizer applies it to every SSE body; a test that
 * holds a Responses stream against a recording uses the same function, never a copy of the rule.
 */
import { isJsonObject, type JsonObject, type JsonValue, numericValue } from "../json/JsonValue.js"
import { RESPONSES_DELTA_JOIN } from "./NormalizationRule.js"

/** Anything carrying a parsed `data:` payload (a normalized SSE frame, or just `{ data }`). */
export interface FrameWithData {
  readonly data?: JsonValue | undefined
}

export const joinResponsesDeltas = <F extends FrameWithData>(frames: ReadonlyArray<F>): { readonly frames: Array<F>; readonly joined: number } => {
  const rule = RESPONSES_DELTA_JOIN
  const deltaOf = (f: F | undefined): JsonObject | undefined =>
    f !== undefined && isJsonObject(f.data) && f.data["type"] === rule.event && typeof f.data["delta"] === "string" ? f.data : undefined
  const out: Array<F> = []
  let joined = 0
  for (const frame of frames) {
    const prev = out[out.length - 1]
    const [a, b] = [deltaOf(prev), deltaOf(frame)]
    if (prev !== undefined && a !== undefined && b !== undefined && rule.sameTarget.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]))) {
      out[out.length - 1] = { ...prev, data: { ...a, delta: `${String(a["delta"])}${String(b["delta"])}` } }
      joined++
      continue
    }
    out.push(frame)
  }
  if (joined === 0) return { frames: out, joined }
  let next: number | undefined
  const renumbered = out.map((f) => {
    if (!isJsonObject(f.data)) return f
    const n = numericValue(f.data[rule.renumbered])
    if (n === undefined) return f
    next ??= n
    return { ...f, data: { ...f.data, [rule.renumbered]: next++ } }
  })
  return { frames: renumbered, joined }
}
