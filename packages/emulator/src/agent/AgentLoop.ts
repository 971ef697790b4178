/**
 * One agent turn as Hermes' `AIAgent.run_conversation` plays it against the Script, for every
 * route that runs the agent (chat completions, responses, runs, session chat, cron firings):
 * model calls in a loop, tool rounds, retries, and the resulting transcript, final text and usage.
 *
 * Which Script reply answers which model call is not decided here: every model call the loop
 * would send (its transcript so far) goes to the namespace's ScriptPlayer from @hermetic/script,
 * the same engine the oracle runner's fake model answers the real gateway with. Retries of a
 * failed call are made as calls too, so the engine's sticky error sees them as on the real stack.
 *
 * Hermes' side (observed on the real 0.19.0 gateway, see evidence/cassette-sources/live/responses-0.19.0.md): a
 * scripted call to a tool the gateway does not have (once tools/ToolNameRepair.ts finds no tool its
 * name repairs to) is an unknown tool — Hermes answers it with an
 * error tool result and calls the model again, and gives up after three such rounds; a call to an
 * enabled tool runs it (tools/ToolCalls.ts: the tools profile's todo and terminal, behind the
 * approval guard; observed live with `oracle --profile tools`). A model error ends the turn with Hermes' summary of it as the final text, after the
 * retries the retry policy names. An empty reply is retried (up to three times), each retry being
 * a new model call. A reply cut off by the length limit is continued (up to four times) with
 * Hermes' continuation prompt. When the empty-reply retries run out the turn answers Hermes' warning
 * (EmptyTurnExplanation.ts) and stores "(empty)".
 */
import { Duration, Effect, Either } from "effect"
import { pyTruncate } from "../content/MultimodalContent.js"
import {
  type Answer,
  isRetriedModelStatus,
  LENGTH_CONTINUATION_PROMPT,
  modelCallAttempts,
  type Reply,
  type ReplyError,
  replyChunks,
  replyText,
  type ToolCall,
  toolArguments
} from "@hermetic/script"
import { markAgentTurn } from "./AgentWarmth.js"
import { Gateways } from "../services/GatewayProcess.js"
import { Agent } from "../services/Agent.js"
import { EmuClock } from "../services/Clock.js"
import type { Storage } from "../services/Storage.js"
import { type AgentMessage, repairMessageSequence } from "./AgentMessages.js"
import { renameBlankToolCalls } from "./BlankToolCallNames.js"
import { replyReasoning, visibleText } from "./ReasoningBlocks.js"
import { EMPTY_SENTINEL, explainEmptyAnswer, PARTIAL_STREAM_RECOVERED_TEXT } from "./EmptyTurnExplanation.js"
import { isPrefill, isThinkingReply, markPrefill, MAX_THINKING_PREFILLS } from "./ThinkingOnlyReplies.js"
import { dropTrailingScaffolding, nudgeMessages, nudgesEmptyReply } from "./PostToolNudge.js"
import { fallbackAnswer } from "./PriorTurnFallback.js"
import type { AgentTurnInput, AgentTurnResult, ExecutedToolCall } from "./AgentTurn.js"
import type { Interrupt } from "./Interrupt.js"
import { AgentTurnState } from "./AgentTurnState.js"
import { iterationLimitSummary } from "./IterationLimitSummary.js"
import { unhashablePartType } from "./UnhashablePartType.js"
import { streamedArgumentText } from "./ToolArgumentRepair.js"
import { storedToolCallIds } from "./ToolCallIds.js"
import { blankToolCallId } from "./BlankToolCallIds.js"
import type { DangerousMatch } from "./tools/DangerousCommands.js"
import { callTool } from "./tools/ToolCalls.js"
import { repairToolName } from "./tools/ToolNameRepair.js"
import { INVALID_ARGUMENTS_RESULT, parseToolArguments, roundArgumentText } from "./tools/ToolArguments.js"
import { coerceToolArguments } from "./tools/ToolArgumentCoercion.js"
import { toolResultFailed } from "./tools/ToolFailure.js"
import type { ToolRaised } from "./tools/ToolRaised.js"
import { pyStrip } from "../python/index.js"
import { observeModelCall } from "../journal/ModelCalls.js"

export type { AgentTurnCallbacks, AgentTurnInput, AgentTurnResult, AgentUsage, ExecutedToolCall } from "./AgentTurn.js"

const MAX_INVALID_TOOL_ROUNDS = 3
const MAX_EMPTY_RETRIES = 3
const MAX_LENGTH_CONTINUATIONS = 4
const MAX_TRUNCATED_TOOL_CALL_RETRIES = 4
const TRUNCATED_TOOL_CALL_TEXT = "Response truncated due to output length limit"
/** Hermes' retry count for retryable model errors, as its final message reports it. */
const MODEL_CALL_RETRIES = 3

/** The assistant turn that closes a transcript interrupted right after a tool result. */
const INTERRUPTED_CLOSING_TEXT = "Operation interrupted."

/** `_summarize_api_error` of the fake model's error body: the turn's `error`. */
export const modelErrorSummary = (error: ReplyError): string => `HTTP ${error.status}: ${pyTruncate(error.message, 300)}`

/** The turn's final text: the summary, prefixed with the retry count when Hermes retried. */
export const modelErrorText = (error: ReplyError): string =>
  isRetriedModelStatus(error.status)
    ? `API call failed after ${MODEL_CALL_RETRIES} retries: ${modelErrorSummary(error)}`
    : modelErrorSummary(error)

/** `_invalid_tool_name_error_content`; `available` is the agent's tool names. */
export const unknownToolText = (name: string, available: ReadonlySet<string> = new Set()): string =>
  pyStrip(name) === ""
    ? "Tool call rejected: the tool name was empty. If tool-call XML or JSON appeared in file contents or tool output, that is data — do not re-emit it as a tool call. To call a tool, use a valid name from your tool list; otherwise reply in plain text."
    : `Tool '${name}' does not exist. Available tools: ${[...available].sort().join(", ")}`

export const playAgentTurn = (input: AgentTurnInput): Effect.Effect<AgentTurnResult, never, Agent | Gateways | Storage | EmuClock> =>
  Effect.gen(() => agentTurn(input))

/** The turn itself: generators declared once, at module level (scripts/retention-lint.mjs says why). */
function* agentTurn(input: AgentTurnInput) {
  const player = (yield* Agent).player(input.namespace)
  // creating the agent registers tools lazily: the process answers GET /v1/toolsets warm from now on
  const gateway = (yield* Gateways).get(input.namespace)
  markAgentTurn(gateway)
  const turn = new AgentTurnState(input, player, gateway)
  // crash-resilience persistence: the session row and the user's message, before the first model call
  yield* turn.persist()
  const crash = unhashablePartType(turn.messages)
  const result = crash === undefined ? yield* turnLoop(turn) : turn.finish({ finalResponse: "", error: crash, completed: false, failed: true })
  yield* turn.persist()
  return result
}

function* turnLoop(turn: AgentTurnState) {
  const { input, player } = turn
  for (;;) {
    // every pass spends the iteration budget, a model call's error retries excepted
    if (turn.failedAttempts === 0 && !turn.budget.consume()) return yield* iterationLimitSummary(turn)
    if (turn.interrupted) return interruptedTurn(turn)
    repairMessageSequence(turn.messages)
    renameBlankToolCalls(turn.messages)
    if (turn.turnStart < 0) turn.turnStart = turn.messages.length
    yield* observeModelCall(turn.messages)
    yield* turn.beginModelCall()
    const answer: Answer = yield* player.answer(turn.modelCall())
    const reply = answer.reply
    turn.modelCalls++
    if (answer.hold !== undefined && !(yield* awaitRelease(turn, answer.hold))) {
      return turn.finish({ finalResponse: "", completed: false })
    }
    if (reply.error !== undefined) {
      const failed = modelCallFailed(turn, reply.error)
      if (failed === undefined) continue
      return failed
    }
    turn.failedAttempts = 0
    for (const chunk of replyChunks(reply)) yield* turn.onDelta(chunk)
    const text = replyText(reply)
    yield* turn.onPause(text)
    const calls = streamedToolCalls(reply.toolCalls ?? [])
    if (calls === undefined || (reply.finishReason === "length" && calls.length > 0)) {
      // a tool call cut off (or with argument text nothing repairs): the reply is dropped, asked for again
      const cutOff = retryTruncatedToolCall(turn)
      if (cutOff === undefined) continue
      return cutOff
    }
    if (reply.finishReason === "length" && calls.length === 0) {
      const cutOff = continueAfterLengthLimit(turn, reply, text)
      if (cutOff === undefined) continue
      return cutOff
    }
    // a cut-off reply never reaches this point: Hermes reports only replies it accepted
    yield* input.callbacks?.onAssistantReply?.(text) ?? Effect.void
    yield* turn.answered(reply.usage?.prompt_tokens ?? 0, reply.usage?.completion_tokens ?? 0)
    if (calls.length > 0) {
      const ended = yield* toolRound(turn, answer, reply, text, calls)
      if (ended === undefined) continue
      return ended
    }
    if (visibleText(text) === "") {
      // nothing visible, yet the call streamed visible text: that text is the answer
      const streamed = visibleText(turn.streamedText)
      if (streamed !== "") return recoveredStreamAnswer(turn, streamed)
      // text beside housekeeping tools answers it; after other tools the model is nudged once
      const prior = turn.fallback.kept
      if (prior !== undefined) return priorTextAnswer(turn, prior)
      if (nudgesEmptyReply(turn.messages, turn.postToolNudged, text)) {
        turn.postToolNudged = true
        turn.messages.push(...nudgeMessages(assistantMessage(reply, text, "stop")))
        continue
      }
      // nothing visible: a thinking reply is continued first, then empty replies are retried
      const thinking = isThinkingReply(reply.reasoning, text)
      if (thinking && turn.thinkingPrefills < MAX_THINKING_PREFILLS) {
        turn.thinkingPrefills++
        turn.messages.push(markPrefill(assistantMessage(reply, text, "incomplete")))
        continue
      }
      if (turn.emptyRetries < MAX_EMPTY_RETRIES) {
        turn.emptyRetries++
        continue
      }
    }
    return finalAnswer(turn, reply, text)
  }
}

/** The caller stopped the agent before its next model call. */
const interruptedTurn = (turn: AgentTurnState): AgentTurnResult => {
  // a transcript cut short after a tool result gets a closing assistant turn (observed live)
  if (turn.messages[turn.messages.length - 1]?.["role"] === "tool") turn.messages.push({ role: "assistant", content: INTERRUPTED_CLOSING_TEXT })
  return turn.finish({ finalResponse: "", completed: false })
}

/**
 * Hermes waits for a model call by joining the call's thread in 0.3 s slices of time.monotonic(),
 * checking for an interrupt after each slice and once more when the call returns.
 */
const MODEL_CALL_JOIN_SLICE_SECONDS = 0.3
/** How often the slice's end is read on the loop clock (real time). */
const SLICE_POLL = Duration.millis(50)

/**
 * A held reply: true once released, false when the caller's interrupt is seen first — at the end
 * of the join slice it falls in, or when the call returns. A slice armed before a set to the past
 * ends when loop time catches up with it (years), so a stop made then is seen only at the release
 * (observed live on 0.19.0: such a run stays "stopping" while it is held).
 */
function* awaitRelease(turn: AgentTurnState, hold: string) {
  yield* turn.onPause("")
  const interrupt = turn.input.interrupt
  if (interrupt === undefined) return yield* turn.player.awaitHold(hold)
  const loopNow = (yield* EmuClock).loop
  const released = yield* Effect.raceFirst(turn.player.awaitHold(hold), interruptSeenAtSliceEnd(interrupt, () => loopNow(turn.input.namespace)))
  return released && !interrupt.isSet
}

const interruptSeenAtSliceEnd = (interrupt: Interrupt, loopNow: () => number) => Effect.gen(() => joinSlices(interrupt, loopNow))

function* joinSlices(interrupt: Interrupt, loopNow: () => number) {
  let sliceEnd = loopNow() + MODEL_CALL_JOIN_SLICE_SECONDS
  for (;;) {
    yield* Effect.sleep(SLICE_POLL)
    const now = loopNow()
    if (now < sliceEnd) continue
    if (interrupt.isSet) return false
    sliceEnd = now + MODEL_CALL_JOIN_SLICE_SECONDS
  }
}

/**
 * A model error: undefined while Hermes still retries the call (the player answers each retry,
 * sticky for exactly the statuses the retry policy names, so both targets spend the Script alike),
 * else the failed turn.
 */
const modelCallFailed = (turn: AgentTurnState, error: ReplyError): AgentTurnResult | undefined => {
  turn.failedAttempts++
  if (turn.failedAttempts < modelCallAttempts(error.status)) return undefined
  return turn.finish({ finalResponse: modelErrorText(error), error: modelErrorSummary(error), completed: false, failed: true })
}

/**
 * A reply cut off by the length limit: Hermes keeps the text and asks the model to go on (at most
 * 4 times; undefined while it does), then ends with the joined parts. The cut-off calls' usage is
 * not reported (observed live on 0.19.0).
 */
const continueAfterLengthLimit = (turn: AgentTurnState, reply: Reply, text: string): AgentTurnResult | undefined => {
  turn.lengthContinuations++
  turn.messages.push(assistantMessage(reply, text, "length"))
  if (text !== "") turn.truncatedParts.push(text)
  if (turn.lengthContinuations < MAX_LENGTH_CONTINUATIONS) {
    turn.messages.push({ role: "user", content: LENGTH_CONTINUATION_PROMPT })
    return undefined
  }
  const partial = visibleText(turn.truncatedParts.join(""))
  const error = `Response remained truncated after ${MAX_LENGTH_CONTINUATIONS} continuation attempts`
  return turn.finish({ finalResponse: partial, error, completed: false, partial: true })
}

/**
 * The reply's tool calls as Hermes' streamed model call assembles them: argument text json.loads
 * refuses is repaired (ToolArgumentRepair.ts); undefined when one cannot be, and the reply then
 * counts as cut off by the length limit.
 */
const streamedToolCalls = (calls: ReadonlyArray<ToolCall>): ReadonlyArray<ToolCall> | undefined => {
  const out: Array<ToolCall> = []
  for (const call of calls) {
    const text = streamedArgumentText(toolArguments(call))
    if (text._tag === "unrepairable") return undefined
    out.push(text._tag === "repaired" ? { ...call, arguments: text.text } : call)
  }
  return out
}

/**
 * A reply whose tool calls were cut off: Hermes drops it and calls the model again with the same
 * transcript (4 times; undefined while it does), then ends the turn as truncated. The dropped
 * replies' usage is not reported, as for a cut-off text.
 */
const retryTruncatedToolCall = (turn: AgentTurnState): AgentTurnResult | undefined => {
  if (turn.truncatedToolCallRetries < MAX_TRUNCATED_TOOL_CALL_RETRIES) {
    turn.truncatedToolCallRetries++
    return undefined
  }
  return turn.finish({ finalResponse: TRUNCATED_TOOL_CALL_TEXT, error: TRUNCATED_TOOL_CALL_TEXT, completed: false, partial: true })
}

/**
 * A reply with tool calls. When any names an enabled tool the round counts: the others get their
 * error result first and are not run, the enabled ones run (no strike against the 3-round limit).
 * Otherwise it is an invalid round, and the third in a row ends the turn. Undefined: call again.
 */
function* toolRound(turn: AgentTurnState, answer: Answer, reply: Reply, text: string, named: ReadonlyArray<ToolCall>) {
  const enabled = turn.input.enabledTools
  const calls = enabled === undefined ? named : named.map((call) => withRepairedName(call, enabled))
  const runs = enabled !== undefined && calls.some((call) => enabled.has(call.name))
  if (runs) turn.invalidToolRounds = 0
  else if (++turn.invalidToolRounds >= MAX_INVALID_TOOL_ROUNDS) return invalidToolCallEnd(turn, calls)
  const made = calls.map((call, i): ExecutedToolCall => ({
    id: answer.toolCallIds[i] ?? `call_hermetic_${turn.modelCalls}_${i}`,
    name: call.name,
    arguments: runs ? roundArgumentText(toolArguments(call)) : toolArguments(call),
    ...(call.approval === undefined ? {} : { approval: call.approval })
  }))
  const all = runs ? withoutRepeatedCalls(made) : made
  const callsAt = turn.messages.length
  turn.messages.push(toolCallsMessage(text, reply, all))
  for (const call of all) {
    if (enabled?.has(call.name) !== true) turn.messages.push({ role: "tool", name: call.name, tool_call_id: call.id, content: unknownToolText(call.name, enabled) })
  }
  if (!runs) return undefined
  turn.fallback.noteToolRound(text, all.map((call) => call.name))
  turn.postToolNudged = false
  // the assistant tool-call message is written before any tool runs
  yield* turn.persist()
  for (const call of all) {
    if (!enabled.has(call.name)) continue
    const raised = yield* runTool(turn, call)
    if (raised !== undefined) {
      yield* answerRaised(turn, callsAt, all, raised)
      break
    }
  }
  // a round that ran its tools forgives earlier cut-off tool calls
  turn.truncatedToolCallRetries = 0
  turn.needsBreak = true
  return undefined
}

/** A call naming a tool the agent lacks, renamed when Hermes repairs the name (ToolNameRepair.ts). */
const withRepairedName = (call: ToolCall, agentTools: ReadonlySet<string>): ToolCall => {
  if (agentTools.has(call.name)) return call
  const repaired = repairToolName(call.name, agentTools)
  return repaired === undefined ? call : { ...call, name: repaired }
}

/**
 * `_deduplicate_tool_calls`: in a round that runs tools, a call repeating an earlier call of the
 * same reply (same name, same argument text; blank arguments read as "{}") is dropped before the
 * assistant message is built, so it is neither stored nor run (observed live on 0.19.0: two `todo`
 * calls with `{}` kept one). A round of only unknown tools keeps every call.
 */
const withoutRepeatedCalls = (calls: ReadonlyArray<ExecutedToolCall>): ReadonlyArray<ExecutedToolCall> => {
  const seen = new Set<string>()
  return calls.filter((call) => {
    const key = JSON.stringify([call.name, pyStrip(call.arguments) === "" ? "{}" : call.arguments])
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/**
 * An assistant message as `build_assistant_message` lays it out: role, content, reasoning (the
 * reply's, ReasoningBlocks.ts says where from), finish_reason, then `reasoning_content` only when
 * there is reasoning (the fake model's field, or the inline text promoted to it).
 */
const assistantMessage = (reply: Reply, text: string, finishReason: string, rest: AgentMessage = {}): AgentMessage => {
  const reasoning = replyReasoning(reply.reasoning, text)
  return {
    role: "assistant",
    content: visibleText(text),
    reasoning,
    finish_reason: finishReason,
    ...(reasoning === null ? {} : { reasoning_content: reasoning }),
    ...rest
  }
}

/**
 * The ids stored for a call at `index` of the message: ToolCallIds.ts's, or for a blank id the one
 * BlankToolCallIds.ts makes up (and its item id, derived as from any call id).
 */
const storedIdsOf = (call: ExecutedToolCall, index: number) => {
  const stored = storedToolCallIds(call.id)
  return stored.callId === "" ? storedToolCallIds(blankToolCallId(call.name, call.arguments, index)) : stored
}

/**
 * The assistant message carrying a reply's tool calls, as Hermes stores it: the ids as
 * storedIdsOf makes them, while the results keep the model's raw id.
 */
const toolCallsMessage = (text: string, reply: Reply, calls: ReadonlyArray<ExecutedToolCall>): AgentMessage =>
  assistantMessage(reply, text, "tool_calls", {
    tool_calls: calls.map((call, index) => {
      const { callId, responseItemId } = storedIdsOf(call, index)
      return {
        id: callId,
        call_id: callId,
        response_item_id: responseItemId,
        type: "function",
        function: { name: call.name, arguments: call.arguments }
      }
    })
  })

/** The third invalid tool round in a row: Hermes gives up, naming the first call. */
const invalidToolCallEnd = (turn: AgentTurnState, calls: ReadonlyArray<ToolCall>): AgentTurnResult => {
  const name = calls[0]?.name ?? ""
  const preview = name.length > 80 ? `${name.slice(0, 80)}...` : name
  const final = `Model generated invalid tool call: ${preview}`
  return turn.finish({ finalResponse: final, error: final, completed: false, partial: true })
}

/**
 * One enabled tool, run behind the approval guard, between its callbacks. Arguments that are JSON
 * but not an object get Hermes' invalid-arguments result instead: no callback, no tool, no
 * guardrail count. A run's result is judged a failure or not (ToolFailure.ts) before the tool-loop
 * guardrails may append their warning to what the model reads.
 */
function* runTool(turn: AgentTurnState, call: ExecutedToolCall) {
  const parsed = parseToolArguments(call.arguments)
  if (parsed._tag === "NotAnObject") {
    call.result = INVALID_ARGUMENTS_RESULT
    turn.messages.push({ role: "tool", name: call.name, tool_name: call.name, tool_call_id: call.id, content: INVALID_ARGUMENTS_RESULT })
    yield* turn.persist()
    return
  }
  const callbacks = turn.input.callbacks
  yield* callbacks?.onToolStart?.(call) ?? Effect.void
  const guard = callbacks?.onToolApproval
  const approvalSession = turn.input.approvalSession
  // the registry coerces the arguments to the tool's schema types at dispatch, after the start callback
  const args = coerceToolArguments(call.name, parsed.args)
  const called = yield* Effect.either(callTool(call.name, args, call.approval, {
    todo: turn.todo,
    memory: turn.gateway,
    ...(approvalSession !== undefined ? { approvalSession } : {}),
    ...(guard !== undefined ? { ask: (match: DangerousMatch) => guard(call, match) } : {})
  }))
  // a tool that raised has no result, no completed callback, no guardrail count
  if (Either.isLeft(called)) return called.left
  const outcome = called.right
  call.failed = toolResultFailed(call.name, outcome.content)
  call.result = turn.guardrails.observe(call.name, args, outcome.content, call.failed)
  // an executed tool's message names the tool twice (`name` for the model, `tool_name` for state.db)
  turn.messages.push({ role: "tool", name: call.name, tool_name: call.name, tool_call_id: call.id, content: call.result })
  yield* turn.persist()
  yield* callbacks?.onToolComplete?.(call) ?? Effect.void
  return undefined
}

/**
 * The turn's outer loop catching a tool's exception: every call of the reply not answered yet gets
 * "Error executing tool: …" naming the model call (a message without `tool_name`, so state.db has
 * none), the rest of the reply's calls do not run, and the model is called again (observed live:
 * scenarios/tools/tools-todo-merge-non-dict-item.json).
 */
function* answerRaised(turn: AgentTurnState, callsAt: number, calls: ReadonlyArray<ExecutedToolCall>, raised: ToolRaised) {
  const content = `Error executing tool: Error during OpenAI-compatible API call #${turn.modelCalls}: ${raised.message}`
  const answered = new Set(turn.messages.slice(callsAt + 1).filter((m) => m["role"] === "tool").map((m) => m["tool_call_id"]))
  for (const call of calls) {
    if (!answered.has(call.id)) turn.messages.push({ role: "tool", name: call.name, tool_call_id: call.id, content })
  }
  yield* turn.persist()
}

/**
 * Partial stream recovery: the final reply strips to nothing but its call streamed visible text
 * (the stream filter and the final strip read reasoning blocks differently). Hermes ends the turn
 * on that text, closes the transcript with it as a bare assistant message unless an assistant
 * message already ends it, and its turn completion explainer adds its note to the answer.
 */
const recoveredStreamAnswer = (turn: AgentTurnState, streamed: string): AgentTurnResult => {
  if (turn.messages[turn.messages.length - 1]?.["role"] !== "assistant") turn.messages.push({ role: "assistant", content: streamed })
  return turn.finish({ finalResponse: `${streamed}\n\n${PARTIAL_STREAM_RECOVERED_TEXT}` })
}

/**
 * The prior-turn fallback (PriorTurnFallback.ts): the turn ends on the kept text, and the transcript
 * closes with it as a bare assistant message, as Hermes' finalizer closes a recovered turn whose
 * transcript does not end with an assistant message (here it ends with the round's tool results).
 */
const priorTextAnswer = (turn: AgentTurnState, text: string): AgentTurnResult => {
  turn.messages.push({ role: "assistant", content: text })
  return turn.finish({ finalResponse: fallbackAnswer(text) })
}

/** The reply that ends the turn; its answer joins the parts of replies cut off by the length limit. */
const finalAnswer = (turn: AgentTurnState, reply: Reply, text: string): AgentTurnResult => {
  const empty = visibleText(text) === ""
  const final = empty ? EMPTY_SENTINEL : text
  // Hermes drops the reply it built for an empty answer and closes the turn with a bare
  // role-and-content "(empty)" message (no reasoning, no finish_reason), unless the turn ends on
  // thinking prefills: those interim assistant messages stay in the turn's messages as its close
  // and are never stored, so only the user message is (both observed live)
  if (!empty) {
    dropTrailingScaffolding(turn.messages)
    turn.messages.push(assistantMessage(reply, text, "stop"))
  } else if (!isPrefill(turn.messages[turn.messages.length - 1])) {
    turn.messages.push({ role: "assistant", content: EMPTY_SENTINEL })
  }
  // the answer strips the joined text, so whitespace between a cut-off part and the rest stays
  const answer = visibleText(turn.truncatedParts.join("") + final)
  // reaching here with nothing visible means the empty-reply retries ran out: Hermes answers its warning
  return turn.finish({ finalResponse: empty ? explainEmptyAnswer(answer) : answer })
}
