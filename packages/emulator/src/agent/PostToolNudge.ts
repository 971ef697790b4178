/**
 * Hermes 0.19.0's post-tool nudge: an empty reply right after tool results (a tool message among
 * the transcript's last five) that is no inline thinking reply gets, once until tools run again, an
 * "(empty)" assistant message and a user prompt to go on, and the model is called again. That
 * prompt is a user message, so the call opens the next Script turn on both sides. The two messages
 * are scaffolding: sent to the model, never written to the session store, and dropped from the
 * transcript's end when the turn's final answer joins it. Observed live on 0.19.0:
 * scenarios/tools/tools-empty-reply-after-housekeeping-tools.json.
 */
import type { AgentMessage } from "./AgentMessages.js"
import { EMPTY_SENTINEL } from "./EmptyTurnExplanation.js"
import { hasInlineThinking, isPrefill } from "./ThinkingOnlyReplies.js"

export const POST_TOOL_NUDGE =
  "You just executed tool calls but returned an empty response. Please process the tool results above and continue with the task."

/** How far back Hermes looks for a tool result. */
const RECENT_MESSAGES = 5

const NUDGE_MARK = "_empty_recovery_synthetic"

/** Whether an empty reply is nudged: tool results just before it, the nudge unspent, no inline thinking tag. */
export const nudgesEmptyReply = (messages: ReadonlyArray<AgentMessage>, nudged: boolean, replyText: string): boolean =>
  !nudged && messages.slice(-RECENT_MESSAGES).some((m) => m["role"] === "tool") && !hasInlineThinking(replyText)

/** The two messages: the empty reply as built (its content replaced), then the prompt. */
export const nudgeMessages = (emptyReply: AgentMessage): ReadonlyArray<AgentMessage> => [
  { ...emptyReply, content: EMPTY_SENTINEL, [NUDGE_MARK]: true },
  { role: "user", content: POST_TOOL_NUDGE, [NUDGE_MARK]: true }
]

/** Recovery scaffolding of either kind (thinking prefills, nudges): never written to the session store. */
export const isScaffolding = (message: AgentMessage): boolean => isPrefill(message) || message[NUDGE_MARK] === true

/** Drops the scaffolding at the transcript's end, before the final answer joins it. */
export const dropTrailingScaffolding = (messages: Array<AgentMessage>): void => {
  while (messages.length > 0 && isScaffolding(messages[messages.length - 1]!)) messages.pop()
}
