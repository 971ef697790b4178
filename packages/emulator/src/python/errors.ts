/** The texts of the Python exceptions the jobs handlers let their broad `except` turn into 500s. */
import { isDict } from "./convert.js"
import { PyFloat, PyInt } from "./PyValue.js"

export const pyTypeName = (v: unknown): string => {
  if (v === null || v === undefined) return "NoneType"
  if (typeof v === "boolean") return "bool"
  if (typeof v === "string") return "str"
  if (v instanceof PyFloat) return "float"
  if (v instanceof PyInt) return "int"
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float"
  if (Array.isArray(v)) return "list"
  if (isDict(v)) return "dict"
  return "object"
}

export const noAttribute = (v: unknown, attr: string): string => `'${pyTypeName(v)}' object has no attribute '${attr}'`
export const noLen = (v: unknown): string => `object of type '${pyTypeName(v)}' has no len()`
export const notIterable = (v: unknown): string => `'${pyTypeName(v)}' object is not iterable`
export const notAString = (v: unknown): string => `expected string or bytes-like object, got '${pyTypeName(v)}'`

/** Python `len()` where it exists: str/list/dict; undefined otherwise. */
export const pyLen = (v: unknown): number | undefined => {
  if (typeof v === "string") return [...v].length
  if (Array.isArray(v)) return v.length
  if (isDict(v)) return Object.keys(v).length
  return undefined
}

/** Python `isinstance(v, int)` (bools included) and its value. */
export const pyIntValue = (v: unknown): bigint | undefined => {
  if (typeof v === "boolean") return v ? 1n : 0n
  if (v instanceof PyInt) return v.value
  if (typeof v === "number" && Number.isInteger(v)) return BigInt(v)
  return undefined
}
