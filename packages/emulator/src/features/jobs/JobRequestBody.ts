/**
 * `await request.json()` inside the jobs handlers' broad try: any failure (undecodable bytes,
 * invalid JSON) becomes a 500 whose text is the Python exception's, so the message matters here.
 */
import { Either } from "effect"
import type { EmuRequest } from "../../http/Exchange.js"
import { MAX_REQUEST_BYTES } from "../../http/RequestBody.js"
import { contentTypeCharset, pyCodecName, pyJsonLoads, pyRequestText, toHandlerValue } from "../../python/index.js"

const platformKnows = (label: string): boolean => {
  try {
    new TextDecoder(label)
    return true
  } catch {
    return false
  }
}

/**
 * The platform's label for a charset: as sent, else Python's folded codec name with "-" for "_" —
 * Python finds `UTF_16` or `ISO_8859_15` (seen on the real 0.19.0: a `charset=UTF_16` body is
 * decoded, not a LookupError), where the platform knows only `utf-16` and `iso-8859-15`.
 */
const platformLabel = (charset: string): string | undefined =>
  [charset, pyCodecName(charset).replace(/_/g, "-")].find(platformKnows)

const UTF16 = /^utf[-_]?16$/i

export const readJobBody = (req: EmuRequest): Either.Either<unknown, string> => {
  // aiohttp's HTTPRequestEntityTooLarge; its str() is the reason phrase (seen on the real 0.19.0)
  if (req.bodyExceeded === true || req.body.byteLength > MAX_REQUEST_BYTES) return Either.left("Request Entity Too Large")
  const charset = contentTypeCharset(req.headers["content-type"])
  const decoded = pyRequestText(req.body, charset)
  let text: string
  const label = charset === undefined ? undefined : platformLabel(charset)
  if (Either.isRight(decoded)) text = decoded.right
  else if (decoded.left.pyType !== "UnsupportedCharset" || charset === undefined) return Either.left(decoded.left.message)
  // a charset no codec knows is Python's LookupError (seen on the real 0.19.0: evidence/live-comparisons/fuzz/)
  else if (label === undefined) return Either.left(`unknown encoding: ${charset}`)
  else {
    // one Python has and the emulation lacks (utf-16: "[]" is one CJK character, then json.loads
    // fails at char 0 as on the real 0.19.0): the platform's strict decoder stands in
    // Python's utf-16 (no BOM: little-endian) refuses an odd byte count by its last byte
    if (UTF16.test(charset) && req.body.byteLength % 2 === 1) {
      const last = req.body[req.body.byteLength - 1] as number
      return Either.left(`'utf-16-le' codec can't decode byte 0x${last.toString(16).padStart(2, "0")} in position ${req.body.byteLength - 1}: truncated data`)
    }
    try {
      text = new TextDecoder(label, { fatal: true, ignoreBOM: true }).decode(req.body)
    } catch {
      return Either.left(decoded.left.message)
    }
  }
  const parsed = pyJsonLoads(text)
  if (Either.isLeft(parsed)) return Either.left(parsed.left.message)
  return Either.right(toHandlerValue(parsed.right))
}
