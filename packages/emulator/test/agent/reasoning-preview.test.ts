import { describe, expect, it } from "vitest"
import { reasoningPreview } from "../../src/agent/ReasoningPreview.js"

describe("reasoningPreview (the progress callback's text of a reply)", () => {
  it("takes the tags out and keeps the blocks' text (observed live: reasoning.available 'why done')", () => {
    expect(reasoningPreview("<reasoning>why</reasoning> done")).toBe("why done")
    expect(reasoningPreview("  <think>x</think>\n")).toBe("x")
    expect(reasoningPreview("<REASONING_SCRATCHPAD>s</REASONING_SCRATCHPAD>")).toBe("s")
  })

  it("knows only three tags, case-sensitively, unlike the answer's stripping", () => {
    expect(reasoningPreview("<thought>t</thought>v")).toBe("<thought>t</thought>v")
    expect(reasoningPreview("<THINK>u</THINK>")).toBe("<THINK>u</THINK>")
  })

  it("keeps the first 500 code points", () => {
    const astral = "😀".repeat(501)
    expect(reasoningPreview(astral)).toBe("😀".repeat(500))
    expect(reasoningPreview("a".repeat(500))).toBe("a".repeat(500))
  })
})
