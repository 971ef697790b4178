/**
 * Python strings index by code point; JS strings by UTF-16 unit. These
 * helpers bridge the two where Python-visible numbers depend on it.
 */

const isHigh = (u: number): boolean => u >= 0xd800 && u <= 0xdbff
const isLow = (u: number): boolean => u >= 0xdc00 && u <= 0xdfff

/** Python's `s[:n]`: the first n code points, never half a surrogate pair. */
export const pyPrefix = (s: string, n: number): string => Array.from(s).slice(0, n).join("")

/** Python index of the code point that starts at UTF-16 index `unitIndex`. */
export const codePointIndex = (s: string, unitIndex: number): number => {
  let pairs = 0
  for (let i = 0; i + 1 < unitIndex; i++) {
    if (isHigh(s.charCodeAt(i)) && isLow(s.charCodeAt(i + 1))) {
      pairs++
      i++
    }
  }
  return unitIndex - pairs
}

/**
 * Python's str ordering (code point order). JS `<` compares UTF-16 units,
 * which misorders astral characters against U+E000..U+FFFF; this matters
 * for `sort_keys=True`.
 */
export const compareCodePoints = (a: string, b: string): number => {
  const n = Math.min(a.length, b.length)
  let i = 0
  while (i < n) {
    // codePointAt joins valid pairs and yields lone surrogates as-is, which
    // is exactly Python's view of the string.
    const x = a.codePointAt(i) as number
    const y = b.codePointAt(i) as number
    if (x !== y) return x - y
    i += x > 0xffff ? 2 : 1
  }
  return a.length - b.length
}

/**
 * Whether `s.encode("utf-8")` succeeds: Python str may hold lone surrogates (json.loads makes them
 * from "\ud800"), and the strict UTF-8 codec, sqlite3's included, raises UnicodeEncodeError on them.
 */
export const pyUtf8Encodable = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i)
    if (isHigh(u) && i + 1 < s.length && isLow(s.charCodeAt(i + 1))) i++
    else if (isHigh(u) || isLow(u)) return false
  }
  return true
}
