/**
 * Image parts in the messages a model call sends. The oracle's scripted model reports no vision,
 * so 0.19.0 (`_prepare_messages_for_non_vision_model`, on the per-call copies only) rewrites the
 * content of every message that holds an image part as text: one vision_analyze note per image,
 * then the message's text parts. The emulator stands for a gateway without network: an http(s)
 * image is refused by the URL-safety check before any download (DNS fails closed, private and
 * metadata addresses are refused anyway), so each note carries that refusal. Not emulated: a
 * `data:` image, which Hermes decodes and sends to its auxiliary vision model (its parts are left
 * as they are), and a public IP literal, which a networked gateway would try to download.
 */
import { isDict, pyStr, pyStrip, pyTruthy } from "../python/index.js"
import type { AgentMessage } from "./AgentMessages.js"

const IMAGE_PART_TYPES: ReadonlySet<unknown> = new Set(["image_url", "input_image"])
const TEXT_PART_TYPES: ReadonlySet<unknown> = new Set(["text", "input_text"])

/** What vision_analyze answers for a URL the safety check refuses. */
const REFUSED_ANALYSIS = "There was a problem with the request and the image could not be analyzed. Error: blocked: unsafe or private URL"
const NO_SOURCE_NOTE = "[An image was attached but no image source was available.]"

const hasImagePart = (content: unknown): boolean => Array.isArray(content) && content.some((p) => isDict(p) && IMAGE_PART_TYPES.has(p["type"]))

const roleLabel = (role: unknown): string => (role === "assistant" ? "assistant" : role === "tool" ? "tool result" : "user")

/** `_describe_image_for_anthropic_fallback`: the note is cached by URL, so the first role to attach it names it. */
const describe = (url: string, role: unknown, notes: Map<string, string>): string => {
  const cached = notes.get(url)
  if (cached !== undefined) return cached
  const note = `[The ${roleLabel(role)} attached an image. Here's what it contains:\n${REFUSED_ANALYSIS}]\n[If you need a closer look, use vision_analyze with image_url: ${url}]`
  notes.set(url, note)
  return note
}

const imageUrlOf = (part: Record<string, unknown>): string => {
  const data = "image_url" in part ? part["image_url"] : {}
  if (isDict(data)) {
    const url = "url" in data ? data["url"] : ""
    return pyTruthy(url) ? pyStr(url) : ""
  }
  return pyTruthy(data) ? pyStr(data) : ""
}

/** `_preprocess_anthropic_content` for one message's list content holding an image. */
const contentAsText = (content: ReadonlyArray<unknown>, role: unknown, notes: Map<string, string>): unknown => {
  const texts: Array<string> = []
  const images: Array<string> = []
  for (const part of content) {
    if (typeof part === "string") {
      if (pyStrip(part) !== "") texts.push(pyStrip(part))
    } else if (isDict(part)) {
      if (TEXT_PART_TYPES.has(part["type"])) {
        const text = part["text"]
        const stripped = pyStrip(pyTruthy(text) ? pyStr(text) : "")
        if (stripped !== "") texts.push(stripped)
      } else if (IMAGE_PART_TYPES.has(part["type"])) {
        const url = imageUrlOf(part)
        // a data: image goes to Hermes' auxiliary vision model: not emulated, the parts stay
        if (url.startsWith("data:")) return content
        images.push(url === "" ? NO_SOURCE_NOTE : describe(url, role, notes))
      }
    }
  }
  const prefix = pyStrip(images.join("\n\n"))
  const suffix = pyStrip(texts.join("\n"))
  return prefix !== "" && suffix !== "" ? `${prefix}\n\n${suffix}` : prefix || suffix
}

/** The per-call messages with every image-holding content turned to text (the same list when none holds one). */
export const imagesAsText = (messages: Array<AgentMessage>): Array<AgentMessage> => {
  if (!messages.some((m) => hasImagePart(m["content"]))) return messages
  const notes = new Map<string, string>()
  return messages.map((m) => (hasImagePart(m["content"]) ? { ...m, content: contentAsText(m["content"] as ReadonlyArray<unknown>, m["role"], notes) } : m))
}
