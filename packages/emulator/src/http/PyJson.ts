/**
 * Response bodies as Python's `json.dumps` writes them (aiohttp's json_response uses the defaults:
 * ensure_ascii, ", " and ": " separators, insertion order). JS numbers that are integers are written
 * as Python ints; values Python holds as floats (timestamps from time.time()) must be wrapped in
 * `PyFloat` so that 1764500000.0 keeps its ".0".
 */
export class PyFloat {
  constructor(readonly value: number) {}
}
export const pyFloat = (value: number): PyFloat => new PyFloat(value)

/** Python's repr(float): shortest round-trip digits, exponent outside 1e-4 <= |x| < 1e16. */
export const floatRepr = (x: number): string => {
  if (Number.isNaN(x)) return "NaN"
  if (x === Infinity) return "Infinity"
  if (x === -Infinity) return "-Infinity"
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0"
  const [mantissa = "", expText = "0"] = Math.abs(x).toExponential().split("e")
  const digits = mantissa.replace(".", "")
  const exp = Number(expText)
  const sign = x < 0 ? "-" : ""
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits
    const e = Math.abs(exp).toString().padStart(2, "0")
    return `${sign}${m}e${exp < 0 ? "-" : "+"}${e}`
  }
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`
  if (digits.length <= exp + 1) return `${sign}${digits}${"0".repeat(exp + 1 - digits.length)}.0`
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`
}

const ESCAPES: Record<string, string> = {
  "\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"
}

/** A JSON string literal as Python writes it with ensure_ascii=True (or False). */
export const pyStringLiteral = (s: string, ensureAscii = true): string => {
  let out = "\""
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string
    const code = s.charCodeAt(i)
    const esc = ESCAPES[ch]
    if (esc !== undefined) out += esc
    else if (code < 0x20 || (ensureAscii && code > 0x7e)) out += "\\u" + code.toString(16).padStart(4, "0")
    else out += ch
  }
  return out + "\""
}

/** `json.dumps(value)` for plain JS data (objects keep insertion order). */
export const pyDumps = (value: unknown, ensureAscii = true): string => {
  if (value === null || value === undefined) return "null"
  if (value instanceof PyFloat) return floatRepr(value.value)
  switch (typeof value) {
    case "string":
      return pyStringLiteral(value, ensureAscii)
    case "boolean":
      return value ? "true" : "false"
    case "number":
      return Number.isInteger(value) ? String(value) : floatRepr(value)
    case "bigint":
      return value.toString()
    case "object": {
      if (Array.isArray(value)) {
        return "[" + value.map((v) => pyDumps(v, ensureAscii)).join(", ") + "]"
      }
      const parts: Array<string> = []
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (v === undefined) continue
        parts.push(pyStringLiteral(k, ensureAscii) + ": " + pyDumps(v, ensureAscii))
      }
      return "{" + parts.join(", ") + "}"
    }
    default:
      return "null"
  }
}
