/**
 * Pretty JSON with object keys sorted, so files written twice from the same data are identical
 * and diffs in review show only what changed. Arrays keep their order (order is data).
 */
const sortKeys = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key]
      if (v !== undefined) out[key] = sortKeys(v)
    }
    return out
  }
  return value
}

export const stableStringify = (value: unknown): string => `${JSON.stringify(sortKeys(value), null, 2)}\n`
