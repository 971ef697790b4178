import { PyDict, PyFloat, PyInt, PyList, type PyValue } from "./PyValue.js"

/**
 * Python `bool(x)` for PyValues and for plain JS values standing in for them.
 * Differs from JS truthiness: [] and {} are falsy, NaN is truthy
 * (bool(float("nan")) is True), and "0" is truthy as in JS.
 */
export const pyTruthy = (v: PyValue | unknown): boolean => {
  if (v === null || v === undefined) return false
  switch (typeof v) {
    case "boolean":
      return v
    case "string":
      return v.length > 0
    case "number":
      return v !== 0 // NaN !== 0, so NaN is truthy as in Python
    case "bigint":
      return v !== 0n
    case "object":
      if (v instanceof PyInt) return v.value !== 0n
      if (v instanceof PyFloat) return v.value !== 0
      if (v instanceof PyList) return v.items.length > 0
      if (v instanceof PyDict) return v.entries.size > 0
      if (Array.isArray(v)) return v.length > 0
      if (v instanceof Map || v instanceof Set) return v.size > 0
      // A plain object stands in for a dict: falsy when it has no keys.
      for (const _ in v) return true
      return false
    default:
      return true
  }
}
