/**
 * `await request.json()` inside the jobs handlers' broad try: any failure (undecodable bytes,
 * invalid JSON) becomes a 500 whose text is the Python exception's, so the message matters here.
 */
import { Either } from "effect"
import type { EmuRequest } from "../http/Exchange.js"
import { MAX_REQUEST_BYTES } from "../http/RequestBody.js"
import { contentTypeCharset, pyJsonLoads, pyRequestText, toHandlerValue } from "../python/index.js"

const platformKnows = (charset: string): boolean => {
  try {
    new TextDecoder(charset)
    return true
  } catch {
    return false
  }
}

export const readJobBody = (req: EmuRequest): Either.Either<unknown, string> => {
  // aiohttp's HTTPRequestEntityTooLarge; its str() is the reason phrase (seen on the real 0.19.0)
  if (req.bodyExceeded === true || req.body.byteLength > MAX_REQUEST_BYTES) return Either.left("Request Entity Too Large")
  const charset = contentTypeCharset(req.headers["content-type"])
  const text = pyRequestText(req.body, charset)
  if (Either.isLeft(text)) {
    // a charset no codec knows is Python's LookupError (seen on the real 0.19.0: evidence/fuzz/)
    if (text.left.pyType === "UnsupportedCharset" && charset !== undefined && !platformKnows(charset)) {
      return Either.left(`unknown encoding: ${charset}`)
    }
    return Either.left(text.left.message)
  }
  const parsed = pyJsonLoads(text.right)
  if (Either.isLeft(parsed)) return Either.left(parsed.left.message)
  return Either.right(toHandlerValue(parsed.right))
}
