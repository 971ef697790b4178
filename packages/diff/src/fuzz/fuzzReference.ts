/**
 * What a live fuzz run's evidence says the real gateway answered, by case label (one label, one
 * request): the in-process mode allows a 5xx only where the real gateway gave one.
 */
import type { Evidence } from "../evidence/Evidence.js"

export interface FuzzReference {
  /** Labels the real gateway answered with a 5xx. */
  readonly serverError: ReadonlySet<string>
  /** Labels it answered below 500 (or not at all). */
  readonly below: ReadonlySet<string>
}

const labelOf = (origin: unknown): string | undefined => {
  if (typeof origin !== "object" || origin === null) return undefined
  const o = origin as { readonly generator?: unknown; readonly label?: unknown }
  return o.generator === "oracle fuzz" && typeof o.label === "string" ? o.label : undefined
}

export const fuzzReference = (evidence: Evidence): FuzzReference => {
  const serverError = new Set<string>()
  const below = new Set<string>()
  for (const s of evidence.scenarios) {
    const label = labelOf(s.origin)
    if (label === undefined) continue
    const status = s.steps[0]?.reference?.exchanges[0]?.response?.status ?? 0
    ;(status >= 500 ? serverError : below).add(label)
  }
  return { serverError, below }
}
