/**
 * `await request.json()` as aiohttp does it: the whole body decoded with the Content-Type charset
 * (utf-8 by default, strict), then Python's json.loads. Any failure is one outcome for handlers
 * ("Invalid JSON"). Handlers get python/convert's handler values; the parsed PyValue is kept too,
 * for fingerprints.
 */
import { Either } from "effect"
import type { EmuRequest } from "./Exchange.js"
import { contentTypeCharset, pyJsonLoads, pyRequestText, type PyValue, toHandlerValue } from "../python/index.js"

export const MAX_REQUEST_BYTES = 10_000_000

/**
 * A chunked body over aiohttp's client_max_size raises inside request.json(), where every handler's
 * broad `except Exception` turns it into "Invalid JSON" too; only a declared Content-Length over the
 * limit reaches the body-limit middleware's 413. Reading stops at the limit (`bodyExceeded`).
 */
export type BodyError = { readonly _tag: "InvalidJson" }

export interface ParsedBody {
  readonly value: unknown
  readonly py: PyValue
}

const INVALID: BodyError = { _tag: "InvalidJson" }

/**
 * aiohttp's `request.text()` through the Python codec emulation (python/requestText); a charset it
 * does not emulate is left to the platform's decoder, strict, as the closest stand-in.
 */
export const decodeText = (req: EmuRequest): Either.Either<string, BodyError> => {
  if (req.bodyExceeded === true || req.body.byteLength > MAX_REQUEST_BYTES) return Either.left(INVALID)
  const charset = contentTypeCharset(req.headers["content-type"])
  const text = pyRequestText(req.body, charset)
  if (Either.isRight(text)) return Either.right(text.right)
  if (text.left.pyType !== "UnsupportedCharset" || charset === undefined) return Either.left(INVALID)
  try {
    return Either.right(new TextDecoder(charset, { fatal: true, ignoreBOM: true }).decode(req.body))
  } catch {
    return Either.left(INVALID)
  }
}

export const readJsonParsed = (req: EmuRequest): Either.Either<ParsedBody, BodyError> =>
  Either.flatMap(decodeText(req), (text) => {
    const py = pyJsonLoads(text)
    return Either.isLeft(py)
      ? Either.left(INVALID)
      : Either.right({ value: toHandlerValue(py.right), py: py.right })
  })

export const readJson = (req: EmuRequest): Either.Either<unknown, BodyError> =>
  Either.map(readJsonParsed(req), (p) => p.value)
