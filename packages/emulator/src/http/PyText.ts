/**
 * Python `str.strip()` with no argument strips what str.isspace() accepts: JS's \s minus U+FEFF,
 * plus U+001C..U+001F and U+0085 (checked against python3 on this machine).
 */
const WS = "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"
const PY_WHITESPACE = new RegExp(`^[${WS}]+|[${WS}]+$`, "g")

export const pyStrip = (s: string): string => s.replace(PY_WHITESPACE, "")
