/**
 * What one agent turn keeps while it plays (AgentLoop.ts plays it): the transcript, the token and
 * retry counters Hermes' loop keeps, and the stream's paragraph-break flag. One object per turn,
 * so the loop's steps are functions of it instead of closures made per turn.
 */
import type { ModelCall, ScriptPlayer } from "@hermetic/script"
import { Effect } from "effect"
import { pyLstrip, pyStrip } from "../python/index.js"
import type { GatewayState } from "../services/GatewayProcess.js"
import type { Storage } from "../services/Storage.js"
import { AGENT_MODEL } from "./AgentIdentity.js"
import { type AgentMessage, markWritten, unpersisted } from "./AgentMessages.js"
import { apiMessages } from "./ApiMessages.js"
import { IterationBudget } from "./IterationBudget.js"
import { isScaffolding } from "./PostToolNudge.js"
import { PriorTurnFallback } from "./PriorTurnFallback.js"
import type { AgentTurnInput, AgentTurnResult, AgentUsage } from "./AgentTurn.js"
import { ReasoningStreamFilter } from "./ReasoningStreamFilter.js"
import { hydrateTodoList } from "./tools/TodoHydration.js"
import { blankArgumentsToEmptyObjects } from "./tools/ToolArguments.js"
import { TodoList } from "./tools/TodoList.js"
import { ToolLoopGuardrails } from "./tools/ToolLoopGuardrails.js"

const noEffect = () => Effect.void
const NO_TOKENS = { input_tokens: 0, output_tokens: 0 }

export class AgentTurnState {
  readonly messages: Array<AgentMessage>
  /** The caller's history dicts: already durable, stamped by a flush but never written. */
  private readonly history: ReadonlySet<AgentMessage>
  /** A fresh agent per request: its todo list starts from the history's last todo result (TodoHydration.ts). */
  readonly todo = new TodoList()
  /** Its tool-loop guardrails count failures within this turn only. */
  readonly guardrails = new ToolLoopGuardrails()
  /** `iteration_budget`: a fresh one per turn (IterationBudget.ts). */
  readonly budget = new IterationBudget()
  inputTokens = 0
  outputTokens = 0
  modelCalls = 0
  /** Calls so far that failed with the same error in a row: Hermes' retries of one call. */
  failedAttempts = 0
  invalidToolRounds = 0
  emptyRetries = 0
  /** Thinking-only final replies continued so far (ThinkingOnlyReplies.ts). */
  thinkingPrefills = 0
  /** Text beside housekeeping tools, which answers a later empty reply (PriorTurnFallback.ts). */
  readonly fallback = new PriorTurnFallback()
  /** Whether an empty reply was nudged since tools last ran (PostToolNudge.ts). */
  postToolNudged = false
  /** Index of this turn's first reply in `messages`, once the first model call is made. */
  turnStart = -1
  /** Texts of replies cut off by finish_reason "length", joined in front of the final answer. */
  readonly truncatedParts: Array<string> = []
  lengthContinuations = 0
  /** Replies dropped because their tool calls were cut off (Hermes asks again 4 times). */
  truncatedToolCallRetries = 0
  /** Set by the turn's first persistence point, which makes sure of the session row. */
  private sessionOpened = false
  /** `_stream_needs_break`: after executed tools, the next non-blank delta starts a new paragraph. */
  needsBreak = false
  /** Reasoning blocks stay out of the stream; a fresh filter per turn (upstream resets it per turn). */
  private readonly streamFilter = new ReasoningStreamFilter()
  /**
   * The visible text the current model call has streamed to a listener (`_current_streamed_assistant_text`):
   * while it is empty a delta loses its leading line ends; an empty final reply ends the turn on it.
   */
  private streamed = ""
  /** Whether anyone listens to the stream: Hermes records only text a stream callback took. */
  private readonly streams: boolean
  private readonly emitDelta: (text: string) => Effect.Effect<void, never, Storage>
  readonly onPause: (replyText: string) => Effect.Effect<void, never, Storage>

  constructor(
    readonly input: AgentTurnInput,
    readonly player: ScriptPlayer,
    readonly gateway: GatewayState
  ) {
    this.messages = [...input.history]
    this.history = new Set(input.history)
    hydrateTodoList(this.todo, input.history)
    this.messages.push({ role: "user", content: input.userMessage })
    this.emitDelta = input.callbacks?.onDelta ?? noEffect
    this.streams = input.callbacks?.onDelta !== undefined
    this.onPause = input.callbacks?.onPause ?? noEffect
  }

  /**
   * A streamed chunk as `_fire_stream_delta` passes it on: after a paragraph break when executed
   * tools came before it, through the reasoning filter, the call's first text without leading line
   * ends; nothing when nothing is left. The break is spent on a non-blank chunk even when the
   * filter leaves only the break.
   */
  onDelta(chunk: string): Effect.Effect<void, never, Storage> {
    let text = chunk
    const broke = this.needsBreak && pyStrip(text) !== ""
    if (broke) {
      this.needsBreak = false
      text = `\n\n${text}`
    }
    text = this.streamFilter.feed(text)
    if (!broke && this.streamed === "") text = pyLstrip(text, "\n")
    if (text === "") return Effect.void
    if (this.streams) this.streamed += text
    return this.emitDelta(text)
  }

  /**
   * Before each model call (`_reset_stream_delivery_tracking`): the filter's held tail of the
   * previous reply is streamed as it is (dropped when it lies in an unclosed block), and the new
   * call starts with nothing streamed. The last reply's held tail is never sent.
   */
  beginModelCall(): Effect.Effect<void, never, Storage> {
    const tail = this.streamFilter.flush()
    this.streamed = ""
    return tail === "" ? Effect.void : this.emitDelta(tail)
  }

  /** What the current model call has streamed so far. */
  get streamedText(): string {
    return this.streamed
  }

  get interrupted(): boolean {
    return this.input.interrupt?.isSet === true
  }

  /** The model call the loop sends now: its transcript so far, as the model would receive it (un-normalized for the summary call). */
  modelCall(normalized = true): ModelCall {
    blankArgumentsToEmptyObjects(this.messages)
    return {
      messages: this.messages.map((m) => ({ role: String(m["role"]), content: m["content"] })),
      model: AGENT_MODEL,
      operation: this.input.operation,
      sessionId: this.input.sessionId,
      wire: apiMessages(this.messages, this.input.ephemeralSystemPrompt, normalized)
    }
  }

  usage(): AgentUsage {
    return { input_tokens: this.inputTokens, output_tokens: this.outputTokens, total_tokens: this.inputTokens + this.outputTokens }
  }

  /**
   * A persistence point (`_persist_session` / `_flush_messages_to_session_db`): the messages not
   * written yet go to the session, each once, however often it is called.
   */
  persist(): Effect.Effect<void, never, Storage> {
    // thinking prefills and nudges are scaffolding Hermes never writes to its session store
    const messages = unpersisted(this.messages, this.history).filter((m) => !isScaffolding(m))
    const write = this.input.persist
    if (write === undefined) {
      markWritten(messages, messages.length)
      return Effect.void
    }
    const opensSession = !this.sessionOpened
    this.sessionOpened = true
    return Effect.map(write({ messages, answeredCalls: 0, tokens: NO_TOKENS, opensSession }), (written) => markWritten(messages, written))
  }

  /**
   * An accepted model reply: its tokens join the turn's usage and, as `update_token_counts` does
   * once per answered call, the session's counters at once (before the reply's messages are written).
   */
  answered(input: number, output: number): Effect.Effect<void, never, Storage> {
    this.inputTokens += input
    this.outputTokens += output
    const write = this.input.persist
    return write === undefined
      ? Effect.void
      : Effect.asVoid(write({ messages: [], answeredCalls: 1, tokens: { input_tokens: input, output_tokens: output }, opensSession: false }))
  }

  /** The turn's result: a completed turn unless `fields` say otherwise (the loop's caller persists it). */
  finish(fields: Partial<AgentTurnResult> & { readonly finalResponse: string }): AgentTurnResult {
    return {
      messages: this.messages,
      turnStart: this.turnStart < 0 ? this.messages.length : this.turnStart,
      error: undefined,
      completed: true,
      partial: false,
      failed: false,
      usage: this.usage(),
      ...fields
    }
  }
}
