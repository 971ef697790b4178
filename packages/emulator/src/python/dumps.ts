/**
 * Response bodies as Python's `json.dumps` writes them (aiohttp's json_response uses the defaults:
 * ensure_ascii, ", " and ": " separators, insertion order). Handlers build plain JS values; a JS
 * integer is a Python int, and values Python holds as floats with an integral value (timestamps
 * from time.time(), a client's 1.0) are wrapped in `PyFloat` so they keep their ".0". Wrapped
 * values from the Python codec (PyInt, PyList, PyDict) pass through unchanged.
 */
import { compareCodePoints } from "./codePoints.js"
import { pyJsonFloat } from "./floatRepr.js"
import { pyJsonDumps, pyJsonString } from "./jsonDumps.js"
import { PyDict, PyFloat, PyInt, PyList } from "./PyValue.js"

/**
 * `json.dumps(value)` for plain JS data: objects keep insertion order, or with `sortKeys` (Python's
 * sort_keys=True) their keys in code point order — the same bytes as converting with `fromJs` and
 * dumping the PyDict, without building it.
 */
export const pyDumps = (value: unknown, ensureAscii = true, sortKeys = false): string => {
  if (value === null || value === undefined) return "null"
  switch (typeof value) {
    case "string":
      return pyJsonString(value, ensureAscii)
    case "boolean":
      return value ? "true" : "false"
    case "number":
      // an integral number is a Python int: all its digits (JS would round past 2^53, and write 1e21 and up as exponents)
      if (Number.isInteger(value) && !Object.is(value, -0)) return Math.abs(value) <= Number.MAX_SAFE_INTEGER ? String(value) : BigInt(value).toString()
      return pyJsonFloat(value)
    case "bigint":
      return value.toString()
    case "object": {
      if (value instanceof PyFloat) return pyJsonFloat(value.value)
      if (value instanceof PyInt || value instanceof PyList || value instanceof PyDict) {
        return pyJsonDumps(value, { ensureAscii, sortKeys })
      }
      if (Array.isArray(value)) {
        let out = "["
        for (let i = 0; i < value.length; i++) out += (i === 0 ? "" : ", ") + pyDumps(value[i], ensureAscii, sortKeys)
        return out + "]"
      }
      const keys = sortKeys ? Object.keys(value).sort(compareCodePoints) : Object.keys(value)
      let out = "{"
      let first = true
      for (const k of keys) {
        const v = (value as Record<string, unknown>)[k]
        if (v === undefined) continue
        out += (first ? "" : ", ") + pyJsonString(k, ensureAscii) + ": " + pyDumps(v, ensureAscii, sortKeys)
        first = false
      }
      return out + "}"
    }
    default:
      return "null"
  }
}
