/**
 * Reasoning blocks a model writes inline in its reply's text (`<think>…</think>` and its
 * variants), as Hermes 0.19.0 treats them once a reply is complete: the visible text keeps none of
 * them (`strip_think_blocks`: the stored assistant content, the final answer), and when the reply
 * carries no structured reasoning their inner text becomes the message's reasoning
 * (`extract_reasoning`). Observed live on the real 0.19.0 gateway:
 * `"<think>planning the list</think>list updated"` is answered and stored as `"list updated"`
 * with reasoning and reasoning_content `"planning the list"`.
 *
 * Patterns are case-insensitive and Unicode-aware, as Python's `re.IGNORECASE` on str patterns is
 * (`u` folds the Kelvin sign onto k); `\s` and `\b` spell Python's Unicode classes out.
 */
import { PY_SPACE_CLASS_BODY, pyStrip } from "../python/index.js"

/** Python's `\s` on str patterns: str.isspace() (python/strip.ts lists the set). */
const PY_SPACE = `[${PY_SPACE_CLASS_BODY}]`
/** Python's `\b` after a word character: no word character (letters, digits, underscore) follows. */
const WORD_END = String.raw`(?![\p{L}\p{N}_])`
/** Python's `\b` before a word character: no word character precedes. */
const WORD_START = String.raw`(?<![\p{L}\p{N}_])`

/** The tag names of a reasoning block, in the order the closed pairs are removed. */
const BLOCK_TAGS = ["think", "thinking", "reasoning", "REASONING_SCRATCHPAD", "thought"] as const
/** The order `extract_reasoning` reads blocks in (thought before reasoning). */
const EXTRACTION_TAGS = ["think", "thinking", "thought", "reasoning", "REASONING_SCRATCHPAD"] as const
/** Tool-call markup some models write in their text instead of structured calls; stripped too. */
const TOOL_MARKUP_TAGS = ["tool_call", "tool_calls", "tool_result", "function_call", "function_calls"] as const

const closedPair = (tag: string) => new RegExp(`<${tag}>.*?</${tag}>`, "gisu")
const CLOSED_PAIRS = BLOCK_TAGS.map(closedPair)
const TOOL_MARKUP = TOOL_MARKUP_TAGS.map((tag) => new RegExp(`<${tag}${WORD_END}[^>]*>.*?</${tag}>`, "gisu"))
/** A named `<function name=…>…</function>` block, only at the text's start or after a line end or sentence end. */
const NAMED_FUNCTION = new RegExp(
  String.raw`(?:(?<=^)|(?<=[\n\r.!?:]))[ \t]*<function${WORD_END}[^>]*${WORD_START}name${PY_SPACE}*=[^>]*>(?:(?:(?!</function>).)*)</function>`,
  "gisu"
)
const OPEN_NAMES = "(?:think|thinking|reasoning|thought|REASONING_SCRATCHPAD)"
/** An opened block never closed, at a block boundary: everything from it to the end goes. */
const UNTERMINATED = new RegExp(`(?:^|\\n)[ \\t]*<${OPEN_NAMES}${WORD_END}[^>]*>.*$`, "isu")
const ORPHAN_TAG = new RegExp(`</?${OPEN_NAMES}>${PY_SPACE}*`, "giu")
const ORPHAN_TOOL_CLOSER = new RegExp(`</(?:tool_call|tool_calls|tool_result|function_call|function_calls|function)>${PY_SPACE}*`, "giu")
const EXTRACTIONS = EXTRACTION_TAGS.map((tag) => new RegExp(`<${tag}>(.*?)</${tag}>`, "gisu"))

/** `strip_think_blocks`: a reply's text without its reasoning blocks (and stray tool-call markup). */
export const stripReasoningBlocks = (content: string): string => {
  if (content === "") return ""
  let text = content
  for (const pattern of CLOSED_PAIRS) text = text.replace(pattern, "")
  for (const pattern of TOOL_MARKUP) text = text.replace(pattern, "")
  text = text.replace(NAMED_FUNCTION, "")
  text = text.replace(UNTERMINATED, "")
  text = text.replace(ORPHAN_TAG, "")
  return text.replace(ORPHAN_TOOL_CLOSER, "")
}

/**
 * A reply's visible text: without reasoning blocks, stripped. What Hermes tests for an empty reply,
 * and an assistant message's content as it builds one (`build_assistant_message`; observed live on
 * 0.19.0: "  padded  " is stored and answered as "padded", "<think>planning the list</think>list
 * updated" as "list updated").
 */
export const visibleText = (text: string): string => pyStrip(stripReasoningBlocks(text))

/**
 * `extract_reasoning`'s inline fallback: the stripped inner text of every closed block, variant
 * by variant, blanks and repeats left out, joined by a blank line; null when there is none.
 */
export const inlineReasoning = (content: string): string | null => {
  const parts: Array<string> = []
  for (const pattern of EXTRACTIONS) {
    for (const match of content.matchAll(pattern)) {
      const block = pyStrip(match[1] ?? "")
      if (block !== "" && !parts.includes(block)) parts.push(block)
    }
  }
  return parts.length === 0 ? null : parts.join("\n\n")
}

/**
 * The reasoning Hermes stores on an assistant message: the reply's structured reasoning (the fake
 * model sends it as `reasoning_content`; an empty one is not sent), else the inline blocks'.
 */
export const replyReasoning = (structured: string | undefined, text: string): string | null =>
  structured !== undefined && structured !== "" ? structured : inlineReasoning(text)
