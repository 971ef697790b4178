/**
 * Pretty JSON with object keys sorted, so files written twice from the same data are identical
 * and diffs in review show only what changed. Arrays keep their order (order is data), and so do
 * the subtrees named in `verbatim` (a Scenario's request bodies are sent in their written order).
 */
const sortKeys = (value: unknown, verbatim: ReadonlySet<string>): unknown => {
  if (Array.isArray(value)) return value.map((v) => sortKeys(v, verbatim))
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key]
      if (v !== undefined) out[key] = verbatim.has(key) ? v : sortKeys(v, verbatim)
    }
    return out
  }
  return value
}

export const stableStringify = (value: unknown, verbatim: ReadonlyArray<string> = []): string =>
  `${JSON.stringify(sortKeys(value, new Set(verbatim)), null, 2)}\n`
