import { isDict } from "../python/index.js"
/** The user message of a /v1/runs body, as the run hands it to the agent: `input` text, or the last input item's content. */

export const runUserMessage = (body: Record<string, unknown>): unknown => {
  const input = body["input"]
  if (typeof input === "string") return input
  if (Array.isArray(input)) {
    const last: unknown = input[input.length - 1]
    return isDict(last) && "content" in last ? last["content"] : ""
  }
  return ""
}
