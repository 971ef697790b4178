import { fromJs } from "./convert.js"
import { pyFloatRepr } from "./floatRepr.js"
import { pyIntRepr } from "./intRepr.js"
import { PyDict, PyFloat, PyInt, PyList, type PyValue } from "./PyValue.js"
import { NON_PRINTABLE_RANGES } from "./unicodeNonPrintable.js"

/**
 * Python `repr()` of the values json.loads produces. Upstream hashes
 * `repr({...})` for idempotency fingerprints, so quoting and escaping must
 * match CPython exactly.
 */

/** Python's str.isprintable() for one code point (Python's Unicode tables, not ICU's). */
export const pyIsPrintable = (cp: number): boolean => {
  const r = NON_PRINTABLE_RANGES
  let lo = 0
  let hi = (r.length >> 1) - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (cp < (r[2 * mid] as number)) hi = mid - 1
    else if (cp > (r[2 * mid + 1] as number)) lo = mid + 1
    else return false
  }
  return true
}

const hex = (cp: number, width: number): string => cp.toString(16).padStart(width, "0")

// Plain printable ASCII without quotes or backslashes needs no work.
const PLAIN = /^[\u0020-\u0026\u0028-\u005b\u005d-\u007e]*$/

export const pyStrRepr = (s: string): string => {
  if (PLAIN.test(s)) return `'${s}'`
  // Python prefers single quotes; it switches only when that avoids escaping.
  const quote = s.includes("'") && !s.includes("\"") ? "\"" : "'"
  let out = quote
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number
    if (ch === quote || ch === "\\") out += "\\" + ch
    else if (cp === 0x09) out += "\\t"
    else if (cp === 0x0a) out += "\\n"
    else if (cp === 0x0d) out += "\\r"
    else if (cp < 0x20 || cp === 0x7f) out += "\\x" + hex(cp, 2)
    else if (cp < 0x7f || pyIsPrintable(cp)) out += ch
    else if (cp <= 0xff) out += "\\x" + hex(cp, 2)
    else if (cp <= 0xffff) out += "\\u" + hex(cp, 4)
    else out += "\\U" + hex(cp, 8)
  }
  return out + quote
}

const reprValue = (v: PyValue): string => {
  if (v === null) return "None"
  if (v === true) return "True"
  if (v === false) return "False"
  if (typeof v === "string") return pyStrRepr(v)
  if (v instanceof PyInt) return pyIntRepr(v.value)
  if (v instanceof PyFloat) return pyFloatRepr(v.value)
  if (v instanceof PyList) return "[" + v.items.map(reprValue).join(", ") + "]"
  if (v instanceof PyDict) {
    const parts: Array<string> = []
    for (const [k, item] of v.entries) parts.push(pyStrRepr(k) + ": " + reprValue(item))
    return "{" + parts.join(", ") + "}"
  }
  const never: never = v
  throw new TypeError(`not a PyValue: ${String(never)}`)
}

/** `repr(x)` of a PyValue or of a handler value standing for one (wrappers pass through fromJs). */
export const pyRepr = (v: unknown): string => reprValue(fromJs(v))

/** `str(x)`: a str is itself, anything else its repr. */
export const pyStr = (v: unknown): string => (typeof v === "string" ? v : pyRepr(v))
