import { compareCodePoints } from "./codePoints.js"
import { pyJsonFloat } from "./floatRepr.js"
import { pyIntRepr } from "./intRepr.js"
import { PyValueError } from "./PyValueError.js"
import { PyDict, PyFloat, PyInt, PyList, type PyValue } from "./PyValue.js"

/**
 * `json.dumps(value, ...)` byte-for-byte for the options upstream uses.
 * Defaults match Python's defaults (no indent).
 */
export interface PyJsonDumpsOptions {
  readonly sortKeys?: boolean
  readonly ensureAscii?: boolean
  /** [item_separator, key_separator]; Python's default without indent is [", ", ": "]. */
  readonly separators?: readonly [string, string]
  /** allow_nan; false makes NaN/Infinity raise ValueError as Python does. */
  readonly allowNan?: boolean
}

const SHORT: Record<number, string> = {
  0x22: "\\\"",
  0x5c: "\\\\",
  0x0a: "\\n",
  0x0d: "\\r",
  0x09: "\\t",
  0x08: "\\b",
  0x0c: "\\f"
}

const hex4 = (c: number): string => "\\u" + c.toString(16).padStart(4, "0")

const escapeUnit = (c: number): string => SHORT[c] ?? hex4(c)

/**
 * A Python str as json.dumps writes it, quotes included. Working per UTF-16
 * unit is exactly right for ensure_ascii: astral characters come out as
 * their surrogate pair, lone surrogates as themselves.
 */
export const pyJsonString = (s: string, ensureAscii = true): string => {
  // Highest unit that may pass through unescaped.
  const maxPlain = ensureAscii ? 0x7e : 0xffff
  let out = ""
  let chunk = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0x20 && c <= maxPlain && c !== 0x22 && c !== 0x5c) continue
    out += s.slice(chunk, i) + escapeUnit(c)
    chunk = i + 1
  }
  return chunk === 0 ? `"${s}"` : `"${out}${s.slice(chunk)}"`
}

const byKey = (a: readonly [string, PyValue], b: readonly [string, PyValue]): number => compareCodePoints(a[0], b[0])

export const pyJsonDumps = (value: PyValue, options?: PyJsonDumpsOptions): string => {
  const sortKeys = options?.sortKeys ?? false
  const ensureAscii = options?.ensureAscii ?? true
  const itemSep = options?.separators?.[0] ?? ", "
  const keySep = options?.separators?.[1] ?? ": "
  const allowNan = options?.allowNan ?? true

  const go = (v: PyValue): string => {
    if (v === null) return "null"
    if (v === true) return "true"
    if (v === false) return "false"
    if (typeof v === "string") return pyJsonString(v, ensureAscii)
    if (v instanceof PyInt) return pyIntRepr(v.value)
    if (v instanceof PyFloat) {
      if (!allowNan && !Number.isFinite(v.value)) {
        throw new PyValueError({ message: "Out of range float values are not JSON compliant" })
      }
      return pyJsonFloat(v.value)
    }
    if (v instanceof PyList) {
      if (v.items.length === 0) return "[]"
      let out = "["
      for (let i = 0; i < v.items.length; i++) {
        if (i > 0) out += itemSep
        out += go(v.items[i] as PyValue)
      }
      return out + "]"
    }
    if (v instanceof PyDict) {
      if (v.entries.size === 0) return "{}"
      const entries = sortKeys ? [...v.entries].sort(byKey) : v.entries
      let out = "{"
      let first = true
      for (const [k, item] of entries) {
        if (!first) out += itemSep
        first = false
        out += pyJsonString(k, ensureAscii) + keySep + go(item)
      }
      return out + "}"
    }
    return absurd(v)
  }
  return go(value)
}

const absurd = (v: never): never => {
  throw new TypeError(`not a PyValue: ${String(v)}`)
}
