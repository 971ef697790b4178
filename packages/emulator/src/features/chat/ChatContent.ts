/**
 * `_normalize_chat_content` (0.19.0 source): the text-only flattening Hermes applies to system
 * messages. Strings pass (truncated to 64 KiB code points); lists join their text parts and
 * non-empty strings with "\n", recursing into nested lists up to depth 10 and stopping once the
 * text reaches the cap; images and unknown parts are silently skipped; any other value is str()'d.
 */
import { MAX_CONTENT_LIST_SIZE, MAX_NORMALIZED_TEXT_LENGTH, pyTruncate } from "../../content/MultimodalContent.js"
import { isDict, pyStr, pyStrip, pyTruthy } from "../../python/index.js"

const TEXT_PART_TYPES = new Set(["text", "input_text", "output_text"])
const MAX_DEPTH = 10

/** Python len(): code points. */
const pyLen = (s: string): number => {
  let n = 0
  for (const _ of s) n++
  return n
}

export const normalizeChatContent = (content: unknown, depth = 0): string => {
  if (depth > MAX_DEPTH) return ""
  if (content === null || content === undefined) return ""
  // upstream's string branch and its str() of other values truncate alike: a string is its own str()
  if (!Array.isArray(content)) return pyTruncate(pyStr(content), MAX_NORMALIZED_TEXT_LENGTH)
  const parts: Array<string> = []
  let total = 0
  const add = (part: string) => {
    parts.push(part)
    total += pyLen(part)
  }
  for (const item of (content as Array<unknown>).slice(0, MAX_CONTENT_LIST_SIZE)) {
    if (typeof item === "string") {
      if (item !== "") add(pyTruncate(item, MAX_NORMALIZED_TEXT_LENGTH))
    } else if (isDict(item)) {
      const type = pyStrip(pyTruthy(item["type"]) ? pyStr(item["type"]) : "").toLowerCase()
      if (TEXT_PART_TYPES.has(type)) {
        const text: unknown = "text" in item ? item["text"] : ""
        if (pyTruthy(text)) add(pyTruncate(pyStr(text), MAX_NORMALIZED_TEXT_LENGTH))
      }
    } else if (Array.isArray(item)) {
      const nested = normalizeChatContent(item, depth + 1)
      if (nested !== "") add(nested)
    }
    if (total >= MAX_NORMALIZED_TEXT_LENGTH) break
  }
  return pyTruncate(parts.join("\n"), MAX_NORMALIZED_TEXT_LENGTH)
}
