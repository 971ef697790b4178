/**
 * JSON.parse with one change: number literals keep their Python type. `1.0` becomes
 * `{"$float": "1.0"}` and integers beyond Number.MAX_SAFE_INTEGER become `{"$bigint": "…"}`;
 * every other value is what JSON.parse gives. Python's `json.dumps` also writes the non-finite
 * floats as bare `NaN`, `Infinity` and `-Infinity` (its default `allow_nan`), which JSON.parse
 * refuses: they become `{"$float": "NaN"}` and so on, so such a body is still compared as JSON
 * (ids and times normalized) rather than as opaque text.
 */
import type { JsonValue } from "./JsonValue.js"

const NUMBER_LEXEME = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y

const NON_FINITE = /-?Infinity|NaN/y
/**
 * Stands for a non-finite literal while JSON.parse reads the text: a string starting with NUL,
 * written escaped into the text (JSON strings hold no raw NUL) and read back unescaped.
 */
const NON_FINITE_MARK = "\u0000py-non-finite:"
const NON_FINITE_MARK_ESCAPED = "\\u0000py-non-finite:"

/**
 * The number literals of a JSON text, in document order, and the text with each non-finite literal
 * outside a string replaced by a marked string (undefined when there is none).
 */
const scanLiterals = (text: string): { readonly lexemes: Array<string>; readonly marked: string | undefined } => {
  const out: Array<string> = []
  let marked = ""
  let copied = 0
  let i = 0
  while (i < text.length) {
    const c = text.charCodeAt(i)
    // N, I or -I: the only starts of a non-finite literal (the regex runs on those alone)
    const maybeNonFinite = c === 78 || c === 73 || (c === 45 && text.charCodeAt(i + 1) === 73)
    NON_FINITE.lastIndex = i
    const nonFinite = maybeNonFinite ? NON_FINITE.exec(text) : null
    if (nonFinite !== null) {
      marked += `${text.slice(copied, i)}"${NON_FINITE_MARK_ESCAPED}${nonFinite[0]}"`
      i += nonFinite[0].length
      copied = i
      continue
    }
    if (c === 34 /* " */) {
      i++
      while (i < text.length) {
        const d = text.charCodeAt(i)
        if (d === 92 /* \ */) i += 2
        else if (d === 34) {
          i++
          break
        } else i++
      }
    } else if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      NUMBER_LEXEME.lastIndex = i
      const m = NUMBER_LEXEME.exec(text)
      if (m === null) break
      out.push(m[0])
      i += m[0].length
    } else i++
  }
  return { lexemes: out, marked: copied === 0 ? undefined : marked + text.slice(copied) }
}

const markNumber = (lexeme: string, value: number): JsonValue => {
  const isFloatLexeme = /[.eE]/.test(lexeme)
  if (isFloatLexeme && Number.isInteger(value)) return { $float: lexeme }
  if (!isFloatLexeme && !Number.isSafeInteger(value)) return { $bigint: lexeme }
  return value
}

/**
 * Throws SyntaxError like JSON.parse on invalid JSON. `pythonNonFinite: false` refuses the bare
 * non-finite literals as JSON.parse does.
 */
export const parseJsonPreservingNumbers = (text: string, options?: { readonly pythonNonFinite?: boolean }): JsonValue => {
  const scanned = scanLiterals(text)
  const lexemes = scanned.lexemes
  const marked = options?.pythonNonFinite === false ? undefined : scanned.marked
  if (marked === undefined && lexemes.every((l) => !/[.eE]/.test(l) && l.replace("-", "").length < 16)) return JSON.parse(text) as JsonValue
  let next = 0
  // JSON.parse calls the reviver leaves-first in document order, so the lexemes line up.
  return JSON.parse(marked ?? text, (_key, value: unknown) => {
    if (typeof value === "number") {
      const lexeme = lexemes[next++] ?? String(value)
      return markNumber(lexeme, value)
    }
    if (marked !== undefined && typeof value === "string" && value.startsWith(NON_FINITE_MARK)) return { $float: value.slice(NON_FINITE_MARK.length) }
    return value
  }) as JsonValue
}
