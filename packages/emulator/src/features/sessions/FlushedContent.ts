/**
 * The content the agent's session flush hands state.db for one message (0.19.0's
 * `_flush_messages_to_session_db`, observed live: evidence/live-comparisons/unbindable-content-parts-deleted-session/):
 * a multimodal tool result becomes its text summary; a list of content parts becomes the text of
 * its `text` parts ("[screenshot]" for an image part) joined by a newline, null when none is left;
 * anything else goes on as is. `REFUSED` stands for content the write fails on: an int past SQLite's
 * int64 (sqlite3 cannot bind it), or a part whose non-text type is a list or dict (Python cannot
 * look it up in the set of image types).
 */
import { isDict, PyInt, pyStr, pyTruthy } from "../../python/index.js"

export const REFUSED: unique symbol = Symbol("refused by state.db")

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n
const IMAGE_TYPES: ReadonlySet<unknown> = new Set(["image", "image_url", "input_image"])

/** `_is_multimodal_tool_result`: a dict with `_multimodal` True and a list `content`. */
const isMultimodalToolResult = (v: unknown): v is Record<string, unknown> =>
  isDict(v) && v["_multimodal"] === true && Array.isArray(v["content"])

const textOf = (part: Record<string, unknown>): string => ("text" in part ? pyStr(part["text"]) : "")

const multimodalSummary = (v: Record<string, unknown>): string => {
  const summary = v["text_summary"]
  if (pyTruthy(summary)) return pyStr(summary)
  const texts = (v["content"] as ReadonlyArray<unknown>).filter((p) => isDict(p) && p["type"] === "text").map((p) => textOf(p as Record<string, unknown>))
  return texts.length > 0 ? texts.join("\n") : "[multimodal tool result]"
}

export const flushedContent = (content: unknown): unknown => {
  if (isMultimodalToolResult(content)) return multimodalSummary(content)
  if (Array.isArray(content)) {
    const texts: Array<string> = []
    for (const part of content) {
      if (!isDict(part)) continue
      const type = part["type"]
      if (type === "text") texts.push(textOf(part))
      else if (Array.isArray(type) || isDict(type)) return REFUSED
      else if (IMAGE_TYPES.has(type)) texts.push("[screenshot]")
    }
    return texts.length > 0 ? texts.join("\n") : null
  }
  if (content instanceof PyInt && (content.value < INT64_MIN || content.value > INT64_MAX)) return REFUSED
  return content
}
