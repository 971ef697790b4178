/**
 * Python's `int(text)` for query parameters: surrounding whitespace allowed, an optional sign, ASCII
 * digits with single underscores between them. Undefined where Python raises ValueError.
 * (Python also accepts other Unicode decimal digits; the emulator does not.)
 */
import { pyStrip } from "./strip.js"

export const pyIntParse = (text: string): bigint | undefined => {
  const t = pyStrip(text)
  if (!/^[+-]?\d(?:_?\d)*$/.test(t)) return undefined
  return BigInt(t.replace(/_/g, ""))
}

/** The API server's `_parse_nonnegative_int`: unparsable or negative → default; capped at maximum. */
export const parseNonNegativeInt = (value: string | null, fallback: number, maximum: number): number => {
  if (value === null) return fallback
  const n = pyIntParse(value)
  if (n === undefined || n < 0n) return fallback
  return n > BigInt(maximum) ? maximum : Number(n)
}
