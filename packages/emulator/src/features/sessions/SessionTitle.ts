/**
 * SessionDB.sanitize_title as a pure function: lone surrogates become U+FFFD, control characters and
 * invisible formatting characters are dropped, whitespace runs (Python's Unicode notion of it)
 * collapse to one space, the ends are stripped; empty means "no title"; over 100 code points is the
 * ValueError upstream turns into a 400 (or lets escape, on POST /api/sessions).
 */
import { Either } from "effect"
import { pyIsSpace, pyStrip } from "../../python/index.js"

export const MAX_TITLE_LENGTH = 100

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g
const INVISIBLE = /[\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufffc\ufff9-\ufffb]/g

export const replaceLoneSurrogates = (text: string): string => text.replace(LONE_SURROGATE, "\ufffd")

const collapseWhitespace = (text: string): string => {
  let out = ""
  let inRun = false
  for (const ch of text) {
    if (pyIsSpace(ch.codePointAt(0) ?? 0)) {
      if (!inRun) out += " "
      inRun = true
    } else {
      out += ch
      inRun = false
    }
  }
  return out
}

export const codePointLength = (text: string): number => {
  let n = 0
  for (const _ of text) n++
  return n
}

/**
 * Right: the clean title or null (nothing left once cleaned, "" included); Left: the ValueError
 * message. Both callers hand it text: PATCH a string, create the title through Python's str().
 */
export const sanitizeTitle = (title: string): Either.Either<string | null, string> => {
  const cleaned = pyStrip(collapseWhitespace(replaceLoneSurrogates(title).replace(CONTROL, "").replace(INVISIBLE, "")))
  if (cleaned === "") return Either.right(null)
  const length = codePointLength(cleaned)
  if (length > MAX_TITLE_LENGTH) return Either.left(`Title too long (${length} chars, max ${MAX_TITLE_LENGTH})`)
  return Either.right(cleaned)
}
