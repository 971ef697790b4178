/**
 * The text Hermes' agent reports to its progress callback after each model reply that has content
 * (`reasoning.available` on a run, the `_thinking` tool.progress of a session chat stream; every
 * assistant message, the final answer included, observed on the real 0.19.0 gateway): the raw
 * content stripped, the reasoning tags themselves removed (the blocks' text stays: "<reasoning>why
 * </reasoning> done" reports "why done"), stripped again, first 500 code points.
 */
import { pyStrip } from "../python/index.js"

/** Only these three tags, unlike the blocks stripped from the answer (ReasoningBlocks.ts). */
const REASONING_TAGS = /<\/?(?:REASONING_SCRATCHPAD|think|reasoning)>/g

export const reasoningPreview = (content: string): string => {
  const text = pyStrip(pyStrip(content).replace(REASONING_TAGS, ""))
  // no more UTF-16 units than 500 is no more code points than 500: nothing to cut (and no array of them)
  return text.length <= 500 ? text : [...text].slice(0, 500).join("")
}
