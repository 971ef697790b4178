/** Hermes' `_coerce_request_bool`: only explicit bool-ish scalars count; anything else is the default. */
export const coerceRequestBool = (value: unknown, fallback: boolean): boolean => {
  if (typeof value === "boolean") return value
  if (value === null || value === undefined) return fallback
  if (typeof value === "string") {
    const v = value.trim().toLowerCase()
    if (["1", "true", "yes", "on"].includes(v)) return true
    if (["0", "false", "no", "off"].includes(v)) return false
    return fallback
  }
  if (typeof value === "number") return value !== 0
  return fallback
}
