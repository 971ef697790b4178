/** Python `str.strip()` with no argument (str.isspace whitespace, not JS's \s). */
export { pyStrip } from "../python/strip.js"
