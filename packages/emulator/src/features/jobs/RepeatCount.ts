/**
 * A job's repeat counts (`times`, `completed`) as mark_job_run and the dispatch claim read them:
 * Python numbers, whatever a client PATCHed in — an int exact past 2^53 (a wrapped PyInt), a
 * float, a bool (an int). Anything else is not a count: callers keep their fallback (no limit,
 * none completed), where upstream's arithmetic would raise.
 */
import { PyFloat, PyInt, pyFloat } from "../../python/index.js"

/** A count's value for comparisons: JS compares a bigint with a number exactly, as Python does. */
export const countValue = (v: unknown): number | bigint | undefined => {
  if (typeof v === "number") return v
  if (typeof v === "boolean") return v ? 1 : 0
  if (v instanceof PyInt) return v.value
  if (v instanceof PyFloat) return v.value
  return undefined
}

/** `count + 1` with Python's result type: an int (a bool too) gives an int, a float a float. */
export const countPlusOne = (v: unknown): unknown => {
  if (v instanceof PyInt) return new PyInt(v.value + 1n)
  if (v instanceof PyFloat) return pyFloat(v.value + 1)
  const value = countValue(v)
  // 2^53 - 1 + 1 is still exact in a double; wider ints arrive as PyInt
  return typeof value === "number" ? value + 1 : 1
}
