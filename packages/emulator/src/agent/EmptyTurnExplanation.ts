/**
 * What Hermes 0.19.0 answers when every reply of a turn was empty and its empty-reply retries ran
 * out: the turn's final text becomes a fixed warning (its "turn completion explainer", on unless
 * configured off), while the transcript closes the turn with a bare "(empty)" assistant message.
 * Observed live on 0.19.0 (evidence/live-comparisons/empty-replies-exhausted/): chat completions,
 * responses, runs and session chat all answer the warning; the session stores "(empty)" with no
 * reasoning or finish_reason, and the session chat stream's run.completed lists it as role and
 * content only. A turn that ends on thinking prefills gets no such message (AgentLoop.ts).
 */

/** The assistant content Hermes records for a turn that produced nothing visible. */
export const EMPTY_SENTINEL = "(empty)"

/** The final text of a turn whose empty-reply retries were exhausted. */
export const EMPTY_RETRIES_EXHAUSTED_TEXT =
  "⚠️ No reply: the model returned empty content after retries and any fallback providers. " +
  "Try `continue`, switch model/provider, or inspect the tool output above."

/**
 * The explainer's note after the text of a turn that ended on partial stream recovery: its final
 * reply was empty once reasoning blocks were stripped, but the call had already streamed visible
 * text, which becomes the answer (observed live on 0.19.0: a run's output is that text, a blank
 * line, then this note; the session stores the text alone).
 */
export const PARTIAL_STREAM_RECOVERED_TEXT =
  "⚠️ No reply: streaming stopped early and only a partial response was recovered. " +
  "Send `continue` to resume from where it stopped."

/**
 * The explainer replaces only an answer that is blank or exactly the sentinel: a turn whose
 * length-cut parts carried text keeps that text.
 */
export const explainEmptyAnswer = (answer: string): string =>
  answer === "" || answer === EMPTY_SENTINEL ? EMPTY_RETRIES_EXHAUSTED_TEXT : answer

/**
 * The explainer's note after a short answer recovered from an earlier reply of the turn, one
 * without closing punctuation (PriorTurnFallback.ts; observed live on 0.19.0: a run's output is
 * "ok noted", a blank line, then this note).
 */
export const PRIOR_CONTENT_RECOVERED_TEXT =
  "⚠️ No reply: no new content was produced this turn; showing recovered prior context. " +
  "Send `continue` to retry."

/** What the explainer leaves as a real answer: a sentence end (or code or parenthesis close). */
const CLOSING_CHARACTERS: ReadonlySet<string> = new Set([".", "!", "?", "。", "！", "？", "`", ")"])
/** The longest answer (in code points) the explainer still reads as a cut-off fragment. */
const FRAGMENT_MAX_LENGTH = 24

/**
 * The explainer's test for a cut-off fragment (`_is_partial_fragment`), applied to every turn that
 * did not end on a normal text reply: a stripped answer of at most 24 code points whose last one
 * closes nothing.
 */
export const isPartialFragment = (stripped: string): boolean => {
  const codePoints = Array.from(stripped)
  return codePoints.length <= FRAGMENT_MAX_LENGTH && !CLOSING_CHARACTERS.has(codePoints[codePoints.length - 1] ?? "")
}
