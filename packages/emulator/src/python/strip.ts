/**
 * Python `str.strip/lstrip/rstrip`. With no argument Python strips its own
 * whitespace set (str.isspace), which differs from JS `trim()`: Python
 * includes \x1c-\x1f and \x85 but not U+FEFF.
 */

const PY_SPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
  0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000
])

/** The same set as the body of a regular-expression class (for `re`'s `\s` on str patterns). */
export const PY_SPACE_CLASS_BODY = String.raw`\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000`

/** Python `str.isspace()` for a single code point. */
export const pyIsSpace = (cp: number): boolean => PY_SPACE.has(cp)

// Walks code points (not units) so an astral char in `chars` strips as one
// character and a lone surrogate in `chars` never splits a pair in `s`.
const cpBefore = (s: string, end: number): number => {
  const lo = s.charCodeAt(end - 1)
  if (lo >= 0xdc00 && lo <= 0xdfff && end >= 2) {
    const hi = s.charCodeAt(end - 2)
    if (hi >= 0xd800 && hi <= 0xdbff) return s.codePointAt(end - 2) as number
  }
  return lo
}

const stripper = (left: boolean, right: boolean) => (s: string, chars?: string | null): string => {
  let strip = pyIsSpace
  if (chars != null) {
    const set = new Set(Array.from(chars, (c) => c.codePointAt(0) as number))
    strip = (cp) => set.has(cp)
  }
  let start = 0
  let end = s.length
  if (left) {
    while (start < end) {
      const cp = s.codePointAt(start) as number
      if (!strip(cp)) break
      start += cp > 0xffff ? 2 : 1
    }
  }
  if (right) {
    while (end > start) {
      const cp = cpBefore(s, end)
      if (!strip(cp)) break
      end -= cp > 0xffff ? 2 : 1
    }
  }
  return start === 0 && end === s.length ? s : s.slice(start, end)
}

/** `s.strip(chars)`; `chars` undefined/null means Python whitespace. */
export const pyStrip = stripper(true, true)
export const pyLstrip = stripper(true, false)
export const pyRstrip = stripper(false, true)
