/**
 * The agent's iteration budget as Hermes 0.19.0 spends it (agent/iteration_budget.py, the loop in
 * agent/conversation_loop.py, agent/turn_finalizer.py): every pass of the turn's loop takes one of
 * AGENT_MAX_TURNS (the runner's `agent.max_turns`, @hermetic/script), a model call's own retries
 * after an error take none. A turn whose last allowed call still asked for tools runs them, and then,
 * instead of another call with tools, gets a summary (IterationLimitSummary.ts plays it).
 *
 * The budget is the API server agent's own: the tools profile enables no delegation, so no subagent
 * can share or spend it, and no execute_code round can be refunded.
 */
import { AGENT_MAX_TURNS } from "@hermetic/script"
import { PY_SPACE_CLASS_BODY, pyStrip } from "../python/index.js"
import { EMPTY_SENTINEL, isPartialFragment } from "./EmptyTurnExplanation.js"

export class IterationBudget {
  private used = 0

  constructor(private readonly max: number = AGENT_MAX_TURNS) {}

  /** One pass of the loop: false once the budget is spent (the pass is then not made). */
  consume(): boolean {
    if (this.used >= this.max) return false
    this.used++
    return true
  }
}

/** The user message Hermes appends before the summary call (stored in the session with the turn). */
export const ITERATION_LIMIT_SUMMARY_REQUEST =
  "You've reached the maximum number of tool-calling iterations allowed. " +
  "Please provide a final response summarizing what you've found and accomplished so far, " +
  "without calling any more tools."

/** The answer when the summary stayed empty after its one retry (stored as the closing assistant message). */
export const ITERATION_LIMIT_NO_SUMMARY_TEXT = "I reached the iteration limit and couldn't generate a summary."

/** The turn completion explainer's note for a turn that ended on the iteration limit. */
export const MAX_ITERATIONS_NOTE =
  "⚠️ No reply: the maximum tool-iteration limit was reached before a final answer. " +
  "Send `continue` to keep going, or raise `max_iterations`."

/** The summary reply's text as Hermes takes it: stripped, then `<think>` blocks (and the space after them) removed. */
const THINK_BLOCK = new RegExp(`<think>[\\s\\S]*?</think>[${PY_SPACE_CLASS_BODY}]*`, "gu")
export const summaryText = (content: string): string => {
  const stripped = pyStrip(content)
  return stripped.includes("<think>") ? pyStrip(stripped.replace(THINK_BLOCK, "")) : stripped
}

/**
 * The explainer on an iteration-limit answer: "(empty)" becomes the note, a short answer without a
 * closing character keeps its text with the note after a blank line, anything else stays as it is.
 */
export const explainIterationLimitAnswer = (answer: string): string => {
  const stripped = pyStrip(answer)
  if (stripped === "" || stripped === EMPTY_SENTINEL) return MAX_ITERATIONS_NOTE
  return isPartialFragment(stripped) ? `${stripped}\n\n${MAX_ITERATIONS_NOTE}` : answer
}
