import { Data, Either } from "effect"
import { utf8SequenceAt } from "./utf8Sequence.js"

/**
 * What upstream's `await request.json()` feeds to json.loads. aiohttp 3.14.1
 * `BaseRequest.text()` is `body.decode(self.charset or "utf-8")` with the
 * default errors="strict": invalid bytes raise UnicodeDecodeError (before
 * json.loads runs), an unknown charset raises LookupError, and a UTF-8 BOM
 * is kept as U+FEFF (json.loads then rejects it with "Unexpected UTF-8 BOM").
 */

export class PyTextDecodeError extends Data.TaggedError("PyTextDecodeError")<{
  /**
   * UnicodeDecodeError: exact CPython message in `message`.
   * UnsupportedCharset: a charset this module does not emulate; Python may
   * know it (e.g. utf-16, cp1252) or raise LookupError("unknown encoding: X").
   */
  readonly pyType: "UnicodeDecodeError" | "UnsupportedCharset"
  readonly message: string
}> {}

type Codec = "utf-8" | "utf-8-sig" | "ascii" | "latin-1"

// Python codec names and aliases (encodings.aliases) for the codecs we emulate,
// in normalized form; test/python/body-vectors.jsonl checks them against CPython.
const CODECS: Record<string, Codec> = {}
const alias = (codec: Codec, names: string): void => {
  for (const n of names.split(" ")) CODECS[n] = codec
}
alias("utf-8", "utf_8 utf8 u8 utf utf8_ucs2 utf8_ucs4 cp65001")
alias("utf-8-sig", "utf_8_sig")
alias(
  "ascii",
  "ascii 646 ansi_x3.4_1968 ansi_x3_4_1968 ansi_x3.4_1986 cp367 csascii ibm367 iso646_us iso_646.irv_1991 iso_ir_6 us us_ascii"
)
alias(
  "latin-1",
  "latin_1 8859 cp819 csisolatin1 ibm819 iso8859 iso8859_1 iso_8859_1 iso_8859_1_1987 iso_ir_100 l1 latin latin1"
)

/** codecs.lookup's name folding: lower-case, runs of other chars -> "_", trimmed. */
export const pyCodecName = (name: string): string =>
  name.toLowerCase().replace(/[^a-z0-9.]+/g, "_").replace(/^_+|_+$/g, "")

/**
 * The `charset` parameter as aiohttp reads it (via email.HeaderParser).
 * Covers `type/sub; name=value; name="quoted"` with case-insensitive names;
 * RFC 2231 continuations and other exotic syntax are not emulated.
 * With duplicate charset parameters the email parser keeps the first.
 */
export const contentTypeCharset = (contentType: string | undefined): string | undefined => {
  if (contentType === undefined) return undefined
  const parts = contentType.match(/(?:[^;"]|"(?:[^"\\]|\\.)*"?)+/g) ?? []
  for (const part of parts.slice(1)) {
    const eq = part.indexOf("=")
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase()
    if (name !== "charset") continue
    if (eq < 0) return ""
    const raw = part.slice(eq + 1).trim()
    if (raw.startsWith("\"")) return raw.slice(1).replace(/"$/, "").replace(/\\(.)/g, "$1")
    return raw.split(/\s/)[0] ?? ""
  }
  return undefined
}

const utf8Error = (bytes: Uint8Array, start: number, end: number, reason: string): PyTextDecodeError =>
  new PyTextDecodeError({
    pyType: "UnicodeDecodeError",
    message: end - start === 1
      ? `'utf-8' codec can't decode byte 0x${(bytes[start] as number).toString(16).padStart(2, "0")} in position ${start}: ${reason}`
      : `'utf-8' codec can't decode bytes in position ${start}-${end - 1}: ${reason}`
  })

/** Locate CPython's first UTF-8 error (maximal-subpart rule) and describe it. */
const firstUtf8Error = (bytes: Uint8Array, offset: number): PyTextDecodeError | undefined => {
  let i = offset
  while (i < bytes.length) {
    const seq = utf8SequenceAt(bytes, i)
    if ("error" in seq) return utf8Error(bytes, i - offset, seq.end - offset, seq.error)
    i += seq.length
  }
  return undefined
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })

const decodeUtf8 = (bytes: Uint8Array, offset: number): Either.Either<string, PyTextDecodeError> => {
  const body = offset === 0 ? bytes : bytes.subarray(offset)
  try {
    return Either.right(utf8.decode(body))
  } catch {
    return Either.left(firstUtf8Error(bytes, offset) ?? utf8Error(bytes, 0, 1, "invalid start byte"))
  }
}

/** `bytes.decode(charset or "utf-8")` as aiohttp's request.text() does it. */
export const pyRequestText = (
  body: Uint8Array,
  charset: string | undefined
): Either.Either<string, PyTextDecodeError> => {
  const codec: Codec | undefined = charset ? CODECS[pyCodecName(charset)] : "utf-8"
  switch (codec) {
    case "utf-8":
      return decodeUtf8(body, 0)
    case "utf-8-sig":
      return decodeUtf8(body, body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0)
    case "ascii": {
      const bad = body.findIndex((b) => b >= 0x80)
      if (bad >= 0) {
        return Either.left(new PyTextDecodeError({
          pyType: "UnicodeDecodeError",
          message: `'ascii' codec can't decode byte 0x${(body[bad] as number).toString(16)} in position ${bad}: ordinal not in range(128)`
        }))
      }
      return Either.right(latin1Exact(body))
    }
    case "latin-1":
      // WHATWG "latin1" is windows-1252; decode bytes -> U+0000..U+00FF by hand.
      return Either.right(latin1Exact(body))
    default:
      return Either.left(new PyTextDecodeError({
        pyType: "UnsupportedCharset",
        message: `charset not emulated: ${String(charset)}`
      }))
  }
}

const latin1Exact = (body: Uint8Array): string => {
  let out = ""
  for (let i = 0; i < body.length; i += 8192) {
    out += String.fromCharCode(...body.subarray(i, i + 8192))
  }
  return out
}
