import { describe, expect, it } from "vitest"
import { inlineReasoning, replyReasoning, stripReasoningBlocks } from "../../src/agent/ReasoningBlocks.js"

/**
 * [reply text, visible text, inline reasoning]: what 0.19.0's strip_think_blocks and
 * extract_reasoning return for each text (computed with the pinned venv's functions).
 */
const CASES: ReadonlyArray<readonly [string, string, string | null]> = [
  ["<think>planning the list</think>list updated", "list updated", "planning the list"],
  ["<reasoning>why</reasoning> done", " done", "why"],
  ["<think>first thought</think>", "", "first thought"],
  ["a <THINK>x</Think> b", "a  b", "x"],
  ["<REASONING_SCRATCHPAD>s</REASONING_SCRATCHPAD>\nanswer", "\nanswer", "s"],
  ["intro\n  <thinking>never closed\nmore", "intro", null],
  ["use <think> tags here", "use tags here", null],
  ["stray </think>  tail", "stray tail", null],
  ['x<tool_call>{"a":1}</tool_call>y', "xy", null],
  ['Done.<function name="f">{}</function> ok', "Done. ok", null],
  ["Use <function> here</function> now", "Use <function> herenow", null],
  ["<thought>t</thought>v", "v", "t"],
  ["<thinkö>x", "<thinkö>x", null],
  ["<think>a</think><reasoning>b</reasoning><think>a</think>c", "c", "a\n\nb"],
  ["<think>  </think>only", "only", null]
]

describe("stripReasoningBlocks (strip_think_blocks)", () => {
  it.each(CASES)("%j is seen as its visible text", (text, visible) => {
    expect(stripReasoningBlocks(text)).toBe(visible)
  })

  it("leaves text without tags as it is", () => {
    expect(stripReasoningBlocks("  plain text\n")).toBe("  plain text\n")
    expect(stripReasoningBlocks("")).toBe("")
  })
})

describe("inlineReasoning (extract_reasoning's inline blocks)", () => {
  it.each(CASES)("%j carries its closed blocks' text", (text, _visible, reasoning) => {
    expect(inlineReasoning(text)).toBe(reasoning)
  })
})

describe("replyReasoning", () => {
  it("prefers the reply's structured reasoning over inline blocks", () => {
    expect(replyReasoning("structured", "<think>inline</think>x")).toBe("structured")
  })

  it("reads inline blocks when the structured reasoning is absent or empty (an empty one is not sent)", () => {
    expect(replyReasoning(undefined, "<think>inline</think>x")).toBe("inline")
    expect(replyReasoning("", "<think>inline</think>x")).toBe("inline")
    expect(replyReasoning(undefined, "no blocks")).toBeNull()
  })
})
