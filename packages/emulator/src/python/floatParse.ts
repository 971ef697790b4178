/**
 * Python's `float(text)` of a str: surrounding whitespace allowed (ASCII, or any Unicode space), an optional sign,
 * decimal digits of any script (Unicode Nd, read as ASCII digits) with single underscores between
 * digits, an optional fraction and exponent, or inf / infinity / nan in any case. The value is the
 * correctly rounded double (an exponent past the range gives ±inf, as Python does). Undefined where
 * Python raises ValueError.
 */
import { pyDecimalDigitsValue } from "./intParse.js"
import { pyIsSpace } from "./strip.js"

const DIGITS = "[0-9](?:_?[0-9])*"
const DECIMAL = new RegExp(`^[+-]?(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:[eE][+-]?${DIGITS})?$`)
const SPECIAL = /^([+-]?)(inf|infinity|nan)$/i

/** Non-ASCII decimal digits become their ASCII digit and non-ASCII spaces a space, as CPython does first. */
const toAscii = (text: string): string => {
  let out = ""
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0
    if (cp < 0x80) out += ch
    else if (pyIsSpace(cp)) out += " "
    else if (/^\p{Nd}$/u.test(ch)) out += String(pyDecimalDigitsValue(ch))
    else return "?" // no float reads any other character
  }
  return out
}

export const pyFloatParse = (text: string): number | undefined => {
  // after the mapping only ASCII whitespace is stripped (\x1c-\x1f, spaces to str.strip, are not)
  const t = toAscii(text).replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, "")
  const special = SPECIAL.exec(t)
  if (special !== null) {
    const magnitude = (special[2] ?? "").toLowerCase() === "nan" ? Number.NaN : Number.POSITIVE_INFINITY
    return special[1] === "-" ? -magnitude : magnitude
  }
  return DECIMAL.test(t) ? Number(t.replace(/_/g, "")) : undefined
}
