/**
 * The end of a turn whose iteration budget is spent (IterationBudget.ts), as 0.19.0 plays it
 * (`handle_max_iterations`, then the turn finalizer), observed live
 * (packages/diff/scenarios/tools/tools-iteration-budget-summary.json): the summary request joins
 * the transcript as a user message, and one call without tools, not streamed and firing no
 * callbacks, asks for the answer. An empty reply is asked for once more, then the answer is Hermes'
 * fixed fallback. The answer closes the transcript as a bare assistant message; the turn is not
 * completed, and the explainer may add its note to what the caller gets (not to what is stored).
 * The summary call's usage is not counted.
 */
import { AGENT_MAX_TURNS, modelErrorBody, replyText, type ReplyError } from "@hermetic/script"
import { observeModelCall } from "../journal/ModelCalls.js"
import { pyRepr, pyStrip } from "../python/index.js"
import type { AgentTurnState } from "./AgentTurnState.js"
import {
  explainIterationLimitAnswer,
  ITERATION_LIMIT_NO_SUMMARY_TEXT,
  ITERATION_LIMIT_SUMMARY_REQUEST,
  summaryText
} from "./IterationBudget.js"

/**
 * The answer when the summary call failed: Hermes names the OpenAI client's exception, whose text
 * is the status and the repr of the model's error body (observed live for a 400). A status the
 * client retries by itself (429, 5xx) is not recorded: its own retries would be more model calls.
 */
const summaryFailedText = (error: ReplyError): string =>
  `I reached the maximum iterations (${AGENT_MAX_TURNS}) but couldn't summarize. ` +
  `Error: Error code: ${error.status} - ${pyRepr(modelErrorBody(error.message, error.type, error.status))}`

/**
 * One summary call: its reply's text stripped, or the error it failed with. It is not one of the
 * loop's calls: Hermes' call count does not move.
 */
function* summaryCall(turn: AgentTurnState) {
  yield* observeModelCall(turn.messages)
  const answer = yield* turn.player.answer(turn.modelCall(false))
  // a blocking call: a held reply is waited for, with no interrupt check
  if (answer.hold !== undefined) yield* turn.player.awaitHold(answer.hold)
  const reply = answer.reply
  return reply.error ?? pyStrip(replyText(reply))
}

/** The answer: a reply stripping to nothing is asked for once more; one left blank by its think blocks is not. */
function* summaryAnswer(turn: AgentTurnState) {
  let call = yield* summaryCall(turn)
  if (call === "") call = yield* summaryCall(turn)
  if (typeof call !== "string") return summaryFailedText(call)
  const text = summaryText(call)
  return text === "" ? ITERATION_LIMIT_NO_SUMMARY_TEXT : text
}

/** The turn's end once its budget is spent: the summary call, the closing message, the answer. */
export function* iterationLimitSummary(turn: AgentTurnState) {
  turn.messages.push({ role: "user", content: ITERATION_LIMIT_SUMMARY_REQUEST })
  const answer = yield* summaryAnswer(turn)
  turn.messages.push({ role: "assistant", content: answer })
  return turn.finish({ finalResponse: explainIterationLimitAnswer(answer), completed: false })
}
