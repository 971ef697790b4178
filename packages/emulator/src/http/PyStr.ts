/**
 * Python's str() of a decoded JSON value (None, True, 1, 1.5, 'x', [...], {...}), for the places
 * upstream stringifies client input before validating it.
 */
import { floatRepr } from "./PyJson.js"

const reprString = (s: string): string => {
  const quote = s.includes("'") && !s.includes("\"") ? "\"" : "'"
  let out = quote
  for (const ch of s) {
    if (ch === quote || ch === "\\") out += "\\" + ch
    else if (ch === "\n") out += "\\n"
    else if (ch === "\r") out += "\\r"
    else if (ch === "\t") out += "\\t"
    else if ((ch.codePointAt(0) ?? 0) < 0x20 || ch === "\x7f") out += "\\x" + (ch.codePointAt(0) ?? 0).toString(16).padStart(2, "0")
    else out += ch
  }
  return out + quote
}

export const pyRepr = (v: unknown): string => {
  if (v === null || v === undefined) return "None"
  if (v === true) return "True"
  if (v === false) return "False"
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : floatRepr(v)
  if (typeof v === "string") return reprString(v)
  if (Array.isArray(v)) return "[" + v.map(pyRepr).join(", ") + "]"
  if (typeof v === "object") {
    return "{" + Object.entries(v as Record<string, unknown>).map(([k, x]) => `${reprString(k)}: ${pyRepr(x)}`).join(", ") + "}"
  }
  return String(v)
}

export const pyStr = (v: unknown): string => (typeof v === "string" ? v : pyRepr(v))
