/**
 * `await request.json()` as aiohttp does it: the whole body decoded with the Content-Type charset
 * (utf-8 by default, strict), then json.loads. Any failure is one outcome for the handlers
 * ("Invalid JSON"); a body over the size limit is another (413 from the body-limit middleware).
 */
import { Either } from "effect"
import type { EmuRequest } from "./Exchange.js"

export const MAX_REQUEST_BYTES = 10_000_000

/**
 * A chunked body over aiohttp's client_max_size raises inside request.json(), where every handler's
 * broad `except Exception` turns it into "Invalid JSON" too; only a declared Content-Length over the
 * limit reaches the body-limit middleware's 413.
 */
export type BodyError = { readonly _tag: "InvalidJson" }

const charsetOf = (contentType: string | undefined): string => {
  const m = /;\s*charset\s*=\s*"?([^";]+)"?/i.exec(contentType ?? "")
  return (m?.[1] ?? "utf-8").trim().toLowerCase()
}

export type JsonLoads = (text: string) => Either.Either<unknown, unknown>

const defaultLoads: JsonLoads = (text) => Either.try(() => JSON.parse(text) as unknown)

let loads: JsonLoads = defaultLoads

/** Installs the Python-faithful json.loads (kept pluggable so the codec lives in its own module). */
export const setJsonLoads = (impl: JsonLoads): void => {
  loads = impl
}

export const decodeText = (req: EmuRequest): Either.Either<string, BodyError> => {
  if (req.body.byteLength > MAX_REQUEST_BYTES) return Either.left({ _tag: "InvalidJson" })
  try {
    const decoder = new TextDecoder(charsetOf(req.headers["content-type"]), { fatal: true, ignoreBOM: true })
    return Either.right(decoder.decode(req.body))
  } catch {
    return Either.left({ _tag: "InvalidJson" })
  }
}

export const readJson = (req: EmuRequest): Either.Either<unknown, BodyError> =>
  Either.flatMap(decodeText(req), (text) =>
    Either.mapLeft(loads(text), (): BodyError => ({ _tag: "InvalidJson" }))
  )

/** Python truthiness for decoded JSON values. */
export const truthy = (v: unknown): boolean => {
  if (v === null || v === undefined || v === false || v === 0 || v === "") return false
  if (Array.isArray(v)) return v.length > 0
  if (typeof v === "object") return Object.keys(v).length > 0
  return true
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v)
