/**
 * A control-plane command's JSON body, decoded by its Schema: an empty body is `{}`, bad input is
 * the message of the command's 400.
 */
import { Either, Schema } from "effect"

/** Deeper than any command needs; deep enough input would otherwise overflow the recursive decoders. */
const MAX_NESTING = 64

/** How deeply a JSON text nests, by its brackets (strings skipped); stops counting past `limit`. */
const nestingDepth = (text: string, limit: number): number => {
  let depth = 0
  let max = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      depth++
      if (depth > max && (max = depth) > limit) return max
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return max
}

export const parseAdminBody = <A, I>(schema: Schema.Schema<A, I>, body: Uint8Array): Either.Either<A, string> => {
  let json: unknown
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(body)
    if (nestingDepth(text, MAX_NESTING) > MAX_NESTING) return Either.left(`body nests deeper than ${MAX_NESTING} levels`)
    json = body.byteLength === 0 ? {} : JSON.parse(text)
  } catch {
    return Either.left("body is not JSON")
  }
  return Either.mapLeft(Schema.decodeUnknownEither(schema)(json), (e) => e.message)
}
