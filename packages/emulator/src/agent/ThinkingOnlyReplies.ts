/**
 * A final reply with reasoning but no visible text (`<think>…</think>` alone, or a structured
 * reasoning with empty text): Hermes 0.19.0 keeps it in the transcript as an interim assistant
 * message (finish_reason "incomplete") and calls the model again, at most twice a turn; the
 * interim messages are dropped when the turn's final answer is written (PostToolNudge.ts's
 * dropTrailingScaffolding; observed live: a thinking-only reply then "after prefill" answers and
 * stores only "after prefill"; three thinking-only replies then "final" answer "final", the third
 * spending an empty-reply retry).
 * They are never written to the session store; a turn whose retries run out ends on them.
 */
import type { AgentMessage } from "./AgentMessages.js"

export const MAX_THINKING_PREFILLS = 2

/** Marks an interim message, so the final answer can find and drop it. */
const PREFILL_MARK = "_thinking_prefill"

/**
 * Whether a reply's text opens one of the three inline tags Hermes checks (`_has_inline_thinking`:
 * not `<thought>` nor `<REASONING_SCRATCHPAD>`); the post-tool nudge reads the same test.
 */
export const hasInlineThinking = (text: string): boolean => /<think>|<thinking>|<reasoning>/i.test(text)

/** Whether a reply counts as thinking: a structured reasoning, or inline thinking (else it is a plain empty one). */
export const isThinkingReply = (structured: string | undefined, text: string): boolean =>
  (structured !== undefined && structured !== "") || hasInlineThinking(text)

/** Whether a message is such an interim message. */
export const isPrefill = (message: AgentMessage | undefined): boolean => message?.[PREFILL_MARK] === true

export const markPrefill = (message: AgentMessage): AgentMessage => ({ ...message, [PREFILL_MARK]: true })
