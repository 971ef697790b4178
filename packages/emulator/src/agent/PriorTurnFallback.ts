/**
 * Hermes 0.19.0's prior-turn fallback: a reply with visible text beside tool calls that are all
 * housekeeping (memory, todo, ...) has usually said all there is to say, so when the reply after
 * that round is empty (nothing visible once reasoning blocks are stripped, reasoning alone
 * included) the turn ends on that earlier text instead of retrying. Text beside any other tool is
 * mid-task narration: such a round drops the kept text, and the empty reply is nudged instead
 * (PostToolNudge.ts). Observed live on 0.19.0:
 * scenarios/tools/tools-empty-reply-after-housekeeping-tools.json.
 */
import { isPartialFragment, PRIOR_CONTENT_RECOVERED_TEXT } from "./EmptyTurnExplanation.js"
import { visibleText } from "./ReasoningBlocks.js"

/** The tools whose calls Hermes counts as housekeeping beside an answer. */
export const HOUSEKEEPING_TOOLS: ReadonlySet<string> = new Set(["memory", "todo", "skill_manage", "session_search"])

/** The turn's kept text (`_last_content_with_tools` while `_last_content_tools_all_housekeeping`). */
export class PriorTurnFallback {
  private text: string | undefined = undefined

  /**
   * A tool round that ran: a round with any other tool drops the kept text; a housekeeping-only
   * round with visible text keeps that text, one without leaves the earlier text in place.
   */
  noteToolRound(replyText: string, toolNames: ReadonlyArray<string>): void {
    if (!toolNames.every((name) => HOUSEKEEPING_TOOLS.has(name))) {
      this.text = undefined
      return
    }
    const visible = visibleText(replyText)
    if (visible !== "") this.text = visible
  }

  /**
   * The kept text for an empty reply; undefined when there is none. Hermes also clears it when it
   * nudges, which it does only when there is none, and a kept text ends the turn.
   */
  get kept(): string | undefined {
    return this.text
  }
}

/**
 * The turn's answer: the kept text, with the turn completion explainer's note appended when it is
 * a cut-off fragment (short, without closing punctuation: its check for every exit but a normal
 * text response).
 */
export const fallbackAnswer = (text: string): string =>
  isPartialFragment(text) ? `${text}\n\n${PRIOR_CONTENT_RECOVERED_TEXT}` : text
