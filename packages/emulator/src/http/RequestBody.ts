/**
 * `await request.json()` as aiohttp does it: the whole body decoded with the Content-Type charset
 * (utf-8 by default, strict), then Python's json.loads. Any failure is one outcome for handlers
 * ("Invalid JSON"). Handlers get JSON-shaped JS values, except where JS would lose what Python
 * keeps and a client could see it echoed back: integral floats stay `PyFloat` (1.0 is not 1) and
 * ints beyond 2^53 stay `PyInt`. The parsed PyValue is kept too, for fingerprints.
 */
import { Either } from "effect"
import { pyJsonLoads } from "../python/jsonLoads.js"
import { PyDict, PyFloat, PyInt, PyList, type PyValue } from "../python/PyValue.js"
import { contentTypeCharset, pyRequestText } from "../python/requestText.js"
import type { EmuRequest } from "./Exchange.js"

export const MAX_REQUEST_BYTES = 10_000_000

/**
 * A chunked body over aiohttp's client_max_size raises inside request.json(), where every handler's
 * broad `except Exception` turns it into "Invalid JSON" too; only a declared Content-Length over the
 * limit reaches the body-limit middleware's 413.
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
  if (req.body.byteLength > MAX_REQUEST_BYTES) return Either.left(INVALID)
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

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/** PyValue → the value handlers work with (see the module comment). */
export const toHandlerValue = (v: PyValue): unknown => {
  if (v === null || typeof v !== "object") return v
  if (v instanceof PyInt) return v.value > MAX_SAFE || v.value < -MAX_SAFE ? v : Number(v.value)
  if (v instanceof PyFloat) return Number.isInteger(v.value) || !Number.isFinite(v.value) ? v : v.value
  if (v instanceof PyList) return v.items.map(toHandlerValue)
  const out: Record<string, unknown> = {}
  for (const [k, item] of (v as PyDict).entries) {
    Object.defineProperty(out, k, { value: toHandlerValue(item), enumerable: true, writable: true, configurable: true })
  }
  return out
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

/** Python truthiness for handler values. */
export const truthy = (v: unknown): boolean => {
  if (v === null || v === undefined || v === false || v === 0 || v === "") return false
  if (v instanceof PyFloat) return v.value !== 0 // NaN is truthy in Python too
  if (v instanceof PyInt) return v.value !== 0n
  if (Array.isArray(v)) return v.length > 0
  if (typeof v === "object") return Object.keys(v).length > 0
  return true
}

/** A JSON object (a Python dict), not a list or a wrapped number. */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof PyFloat) && !(v instanceof PyInt)
