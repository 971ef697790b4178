/**
 * Before its first model call Hermes' agent estimates the request's tokens, counting image parts
 * with `part.get("type") in {"image", "image_url", "input_image"}`: a content part whose type is a
 * list or dict cannot be looked up in a set, and the turn dies with Python's TypeError (observed
 * live on 0.19.0: a run fails with "unhashable type: 'list'" and makes no model call). Only a
 * route that hands the agent unvalidated parts (/v1/runs) gets one this far.
 */
import { isDict } from "../python/index.js"
import type { AgentMessage } from "./AgentMessages.js"

/** The TypeError's text for the first such part of the transcript, or undefined. */
export const unhashablePartType = (messages: ReadonlyArray<AgentMessage>): string | undefined => {
  for (const m of messages) {
    const content = m["content"]
    if (!Array.isArray(content)) continue
    for (const part of content) {
      if (!isDict(part)) continue
      const type = part["type"]
      if (Array.isArray(type)) return "unhashable type: 'list'"
      if (isDict(type)) return "unhashable type: 'dict'"
    }
  }
  return undefined
}
