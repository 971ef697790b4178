import { describe, expect, it } from "vitest"
import { isThinkingReply, markPrefill } from "../../src/agent/ThinkingOnlyReplies.js"

describe("isThinkingReply", () => {
  it("is a structured reasoning, or an inline think, thinking or reasoning tag in any case", () => {
    expect(isThinkingReply("structured", "")).toBe(true)
    expect(isThinkingReply(undefined, "<think>x</think>")).toBe(true)
    expect(isThinkingReply(undefined, "<THINKING>x</THINKING>")).toBe(true)
    expect(isThinkingReply(undefined, "<Reasoning>unclosed")).toBe(true)
  })

  it("is not a <thought> or scratchpad block alone, nor an empty structured reasoning", () => {
    expect(isThinkingReply(undefined, "<thought>t</thought>")).toBe(false)
    expect(isThinkingReply(undefined, "<REASONING_SCRATCHPAD>s</REASONING_SCRATCHPAD>")).toBe(false)
    expect(isThinkingReply("", "")).toBe(false)
  })
})

describe("markPrefill", () => {
  it("marks a copy, not the message given", () => {
    const message = { role: "assistant", content: "" }
    expect(markPrefill(message)).not.toBe(message)
    expect(message).toEqual({ role: "assistant", content: "" })
  })
})
