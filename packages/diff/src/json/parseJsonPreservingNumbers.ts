/**
 * JSON.parse with one change: number literals keep their Python type. `1.0` becomes
 * `{"$float": "1.0"}` and integers beyond Number.MAX_SAFE_INTEGER become `{"$bigint": "…"}`;
 * every other value is what JSON.parse gives. Uses JSON.parse's reviver `context.source` where
 * the runtime has it (Node ≥ 21), a lexeme scan otherwise.
 */
import type { JsonValue } from "./JsonValue.js"

const NUMBER_LEXEME = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y

/** The number literals of a JSON text, in document order. */
const numberLexemes = (text: string): Array<string> => {
  const out: Array<string> = []
  let i = 0
  while (i < text.length) {
    const c = text.charCodeAt(i)
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
      if (m === null) return out
      out.push(m[0])
      i += m[0].length
    } else i++
  }
  return out
}

const markNumber = (lexeme: string, value: number): JsonValue => {
  const isFloatLexeme = /[.eE]/.test(lexeme)
  if (isFloatLexeme && Number.isInteger(value)) return { $float: lexeme }
  if (!isFloatLexeme && !Number.isSafeInteger(value)) return { $bigint: lexeme }
  return value
}

/** Throws SyntaxError like JSON.parse on invalid JSON. */
export const parseJsonPreservingNumbers = (text: string): JsonValue => {
  const lexemes = numberLexemes(text)
  if (lexemes.every((l) => !/[.eE]/.test(l) && l.replace("-", "").length < 16)) return JSON.parse(text) as JsonValue
  let next = 0
  // JSON.parse calls the reviver leaves-first in document order, so the lexemes line up.
  return JSON.parse(text, (_key, value: unknown) => {
    if (typeof value === "number") {
      const lexeme = lexemes[next++] ?? String(value)
      return markNumber(lexeme, value)
    }
    return value
  }) as JsonValue
}
