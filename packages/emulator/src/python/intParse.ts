/**
 * Python's `int(text)` for query parameters: surrounding whitespace allowed, an optional sign, decimal
 * digits of any script (Unicode Nd, mixed freely) with single underscores between them, at most 4300
 * of them. Undefined where Python raises ValueError.
 */
import { pyStrip } from "./strip.js"

const isDecimalDigit = (cp: number): boolean => /^\p{Nd}$/u.test(String.fromCodePoint(cp))

/**
 * Python's `int()` of a run of Unicode decimal digits (what `\d` matches on str). Unicode encodes
 * every decimal digit set as ten consecutive code points, 0 to 9, and adjacent sets whole, so a
 * digit's value is its distance from the start of its run of digit code points, modulo 10.
 */
export const pyDecimalDigitsValue = (digits: string): bigint => {
  let value = 0n
  for (const ch of digits) {
    const cp = ch.codePointAt(0) ?? 0
    let start = cp
    while (isDecimalDigit(start - 1)) start--
    value = value * 10n + BigInt((cp - start) % 10)
  }
  return value
}

/** CPython >= 3.11: int() of text refuses more digits than sys.get_int_max_str_digits(). */
export const INT_MAX_STR_DIGITS = 4300

/** The ValueError of int() given `count` digits, more than INT_MAX_STR_DIGITS (leading zeros count). */
export const pyIntDigitLimitMessage = (count: number): string =>
  `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${count} digits; ` +
  "use sys.set_int_max_str_digits() to increase the limit"

export const pyIntParse = (text: string): bigint | undefined => {
  const t = pyStrip(text)
  if (!/^[+-]?\p{Nd}(?:_?\p{Nd})*$/u.test(t)) return undefined
  const digits = t.replace(/^[+-]|_/g, "")
  // counted in code points (astral digits are two UTF-16 units); the sign and underscores do not count
  if ([...digits].length > INT_MAX_STR_DIGITS) return undefined
  const magnitude = pyDecimalDigitsValue(digits)
  return t.startsWith("-") ? -magnitude : magnitude
}

/** The API server's `_parse_nonnegative_int`: unparsable or negative → default; capped at maximum. */
export const parseNonNegativeInt = (value: string | null, fallback: number, maximum: number): number => {
  if (value === null) return fallback
  const n = pyIntParse(value)
  if (n === undefined || n < 0n) return fallback
  return n > BigInt(maximum) ? maximum : Number(n)
}
