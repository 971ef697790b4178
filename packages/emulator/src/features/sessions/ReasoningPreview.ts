import { pyStrip } from "../../python/index.js"
/**
 * The text Hermes' agent reports as `reasoning.available` after each model reply that has content
 * (every assistant message, the final answer included, observed on the real 0.19.0 gateway): the
 * content stripped, reasoning tags removed, stripped again, first 500 code points.
 */

const REASONING_TAGS = /<\/?(?:REASONING_SCRATCHPAD|think|reasoning)>/g

export const reasoningPreview = (content: string): string =>
  [...pyStrip(pyStrip(content).replace(REASONING_TAGS, ""))].slice(0, 500).join("")
