/**
 * Message content as Hermes' API server normalizes it before the agent sees it (0.19.0
 * `_normalize_multimodal_content`, `_content_has_visible_payload`): text-only content collapses to
 * one string (parts joined by "\n"), image parts become `image_url` parts, files and unknown part
 * types are rejected with a coded 400. Shared by every route that accepts OpenAI-style content.
 */
import { Either } from "effect"
import { errorResponse } from "../http/Envelopes.js"
import type { EmuResponse } from "../http/Exchange.js"
import { isDict, pyRepr, pyStr, pyStrip, pyTruthy } from "../python/index.js"

export const MAX_NORMALIZED_TEXT_LENGTH = 65_536
export const MAX_CONTENT_LIST_SIZE = 1_000

const TEXT_PART_TYPES = new Set(["text", "input_text", "output_text"])
const IMAGE_PART_TYPES = new Set(["image_url", "input_image"])
const FILE_PART_TYPES = new Set(["file", "input_file"])

/** A rejected content part: upstream's ValueError "code:message". */
export interface ContentError {
  readonly code: "unsupported_content_type" | "invalid_image_url" | "invalid_content_part"
  readonly message: string
}

export type TextPart = { type: "text"; text: string }
export type ImagePart = { type: "image_url"; image_url: { url: string; detail?: string } }
export type NormalizedContent = string | Array<TextPart | ImagePart>

/** Python `s[:n]`: counts code points, not UTF-16 units. */
export const pyTruncate = (s: string, n: number): string => {
  if (s.length <= n) return s
  let units = 0
  let points = 0
  while (units < s.length && points < n) {
    const cp = s.codePointAt(units) ?? 0
    units += cp > 0xffff ? 2 : 1
    points++
  }
  return s.slice(0, units)
}

/** `_normalize_chat_content` for the non-list, non-str values it stringifies. */
const scalarText = (content: unknown): string =>
  content === null || content === undefined ? "" : pyTruncate(pyStr(content), MAX_NORMALIZED_TEXT_LENGTH)

/** `str(x or "").strip().lower()` of a part's type. */
const partType = (raw: unknown): string => pyStrip(pyTruthy(raw) ? pyStr(raw) : "").toLowerCase()

const normalizeImage = (part: Record<string, unknown>): Either.Either<ImagePart, ContentError> => {
  let detail: unknown = part["detail"]
  const ref: unknown = part["image_url"]
  let url: unknown = ref
  if (isDict(ref)) {
    url = ref["url"]
    if ("detail" in ref) detail = ref["detail"]
  }
  if (typeof url !== "string" || pyStrip(url) === "") {
    return Either.left({ code: "invalid_image_url", message: "Image parts must include a non-empty image URL." })
  }
  const trimmed = pyStrip(url)
  const lowered = trimmed.toLowerCase()
  if (lowered.startsWith("data:")) {
    if (!lowered.startsWith("data:image/") || !trimmed.includes(",")) {
      return Either.left({
        code: "unsupported_content_type",
        message: "Only image data URLs are supported. Non-image data payloads are not supported."
      })
    }
  } else if (!lowered.startsWith("http://") && !lowered.startsWith("https://")) {
    return Either.left({
      code: "invalid_image_url",
      message: "Image inputs must use http(s) URLs or data:image/... URLs."
    })
  }
  const image: ImagePart = { type: "image_url", image_url: { url: trimmed } }
  if (detail !== null && detail !== undefined) {
    if (typeof detail !== "string" || pyStrip(detail) === "") {
      return Either.left({ code: "invalid_content_part", message: "Image detail must be a non-empty string when provided." })
    }
    image.image_url.detail = pyStrip(detail)
  }
  return Either.right(image)
}

/** `_normalize_multimodal_content`. */
export const normalizeMultimodalContent = (content: unknown): Either.Either<NormalizedContent, ContentError> => {
  if (typeof content === "string") return Either.right(pyTruncate(content, MAX_NORMALIZED_TEXT_LENGTH))
  if (!Array.isArray(content)) return Either.right(scalarText(content))
  const parts: Array<TextPart | ImagePart> = []
  for (const part of content.slice(0, MAX_CONTENT_LIST_SIZE) as Array<unknown>) {
    if (typeof part === "string") {
      if (part !== "") parts.push({ type: "text", text: pyTruncate(part, MAX_NORMALIZED_TEXT_LENGTH) })
      continue
    }
    if (!isDict(part)) continue // unknown scalars are skipped for forward compatibility
    const raw: unknown = part["type"]
    const type = partType(raw)
    if (TEXT_PART_TYPES.has(type)) {
      const text: unknown = part["text"]
      if (text === null || text === undefined) continue
      const s = pyStr(text)
      if (s !== "") parts.push({ type: "text", text: pyTruncate(s, MAX_NORMALIZED_TEXT_LENGTH) })
      continue
    }
    if (IMAGE_PART_TYPES.has(type)) {
      const image = normalizeImage(part)
      if (Either.isLeft(image)) return Either.left(image.left)
      parts.push(image.right)
      continue
    }
    if (FILE_PART_TYPES.has(type)) {
      return Either.left({
        code: "unsupported_content_type",
        message:
          "Inline image inputs are supported, but uploaded files and document inputs are not supported on this endpoint."
      })
    }
    return Either.left({
      code: "unsupported_content_type",
      message: `Unsupported content part type ${pyRepr(raw ?? null)}. Only text and image_url/input_image parts are supported.`
    })
  }
  if (parts.length === 0) return Either.right("")
  if (parts.every((p): p is TextPart => p.type === "text")) {
    return Either.right(parts.filter((p) => p.text !== "").map((p) => p.text).join("\n"))
  }
  return Either.right(parts)
}

/** `_content_has_visible_payload`: any non-blank text, or any image. */
export const hasVisiblePayload = (content: unknown): boolean => {
  if (typeof content === "string") return pyStrip(content) !== ""
  if (!Array.isArray(content)) return false
  for (const part of content as Array<unknown>) {
    if (!isDict(part)) continue
    const type = partType(part["type"])
    if (TEXT_PART_TYPES.has(type)) {
      const text: unknown = part["text"]
      if (pyStrip(pyTruthy(text) ? pyStr(text) : "") !== "") return true
    }
    if (IMAGE_PART_TYPES.has(type)) return true
  }
  return false
}

/** `_multimodal_validation_error`: the coded 400 naming the offending field. */
export const contentErrorResponse = (error: ContentError, param: string): EmuResponse =>
  errorResponse(400, error.message, { code: error.code, param })
