import { pyDumps, PyFloat, PyInt, pyJsonLoads, toHandlerValue } from "../../python/index.js"
import { sqliteRealText } from "./SqliteRealText.js"
/**
 * How state.db stores a message's content (`append_message`): text as is; a dict as a
 * sentinel-prefixed json.dumps; numbers and bools as SQLite's TEXT affinity turns them into text
 * (a float as `%!.15g`, not Python's repr). A list never gets here: the agent's flush makes it
 * text first (FlushedContent.ts). Reading reverses the sentinel form.
 */

/** The marker upstream puts in front of JSON-encoded structured content. */
export const STRUCTURED_CONTENT_PREFIX = "\u0000json:"

export const encodeContent = (content: unknown): string | null => {
  if (content === null || content === undefined) return null
  if (typeof content === "string") return content
  if (typeof content === "boolean") return content ? "1" : "0"
  if (typeof content === "number") return Number.isInteger(content) ? String(content) : sqliteRealText(content)
  if (content instanceof PyInt) return content.value.toString()
  if (content instanceof PyFloat) return Number.isFinite(content.value) ? sqliteRealText(content.value) : pyDumps(content)
  // what is left is a dict
  return STRUCTURED_CONTENT_PREFIX + pyDumps(content)
}

export const decodeContent = (stored: string | null): unknown => {
  if (stored === null || !stored.startsWith(STRUCTURED_CONTENT_PREFIX)) return stored
  const parsed = pyJsonLoads(stored.slice(STRUCTURED_CONTENT_PREFIX.length))
  return parsed._tag === "Right" ? toHandlerValue(parsed.right) : stored
}

/** Stored JSON text (tool_calls) back to a value; upstream falls back to [] when it cannot parse. */
export const decodeJsonColumn = (stored: string | null): unknown => {
  if (stored === null || stored === "") return null
  const parsed = pyJsonLoads(stored)
  return parsed._tag === "Right" ? toHandlerValue(parsed.right) : []
}
