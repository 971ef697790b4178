/**
 * Hermes' `_coerce_request_bool`: only explicit bool-ish scalars count; anything else is the default.
 * Numbers are Python's bool(); that includes the ones the JSON codec keeps wrapped (1.0, big ints).
 */
import { PyFloat, PyInt } from "./PyValue.js"
import { pyStrip } from "./strip.js"

export const coerceRequestBool = (value: unknown, fallback: boolean): boolean => {
  if (typeof value === "boolean") return value
  if (value === null || value === undefined) return fallback
  if (typeof value === "string") {
    const v = pyStrip(value).toLowerCase()
    if (["1", "true", "yes", "on"].includes(v)) return true
    if (["0", "false", "no", "off"].includes(v)) return false
    return fallback
  }
  if (typeof value === "number") return value !== 0
  if (value instanceof PyFloat) return value.value !== 0 // NaN is true, as bool(nan)
  if (value instanceof PyInt) return value.value !== 0n
  return fallback
}
