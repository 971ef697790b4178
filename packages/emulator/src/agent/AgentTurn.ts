/**
 * The shapes of one agent turn (AgentLoop.ts plays it): what a route gives it, what it reports
 * as it goes, and what it returns.
 */
import type { AgentOperation, ToolApproval } from "@hermetic/script"
import type { Effect } from "effect"
import type { Storage } from "../services/Storage.js"
import type { AgentMessage } from "./AgentMessages.js"
import type { Interrupt } from "./Interrupt.js"
import type { DangerousMatch } from "./tools/DangerousCommands.js"
import type { ApprovalChoice } from "./tools/ToolCalls.js"

export interface AgentUsage {
  readonly input_tokens: number
  readonly output_tokens: number
  readonly total_tokens: number
}

/** `run_conversation`'s result plus the agent's token counters. */
export interface AgentTurnResult {
  readonly finalResponse: string
  /** The agent's transcript: the (repaired) history dicts, this turn's user message and replies. */
  readonly messages: Array<AgentMessage>
  /** Index of this turn's first reply in `messages` (after the repaired history and user message). */
  readonly turnStart: number
  readonly error: string | undefined
  readonly completed: boolean
  readonly partial: boolean
  readonly failed: boolean
  readonly usage: AgentUsage
}

/** What the agent reports as it goes; a callback may write to Storage (a run's status), which the turn's caller provides. */
export interface AgentTurnCallbacks {
  /** `stream_delta_callback`: each text chunk as the model streams it. */
  readonly onDelta?: (text: string) => Effect.Effect<void, never, Storage>
  /**
   * A pause in the stream (a model call ended, or a held reply is awaited): buffered text may
   * flush. `replyText` is the text of the reply just streamed, reasoning blocks included ("" at a hold).
   */
  readonly onPause?: (replyText: string) => Effect.Effect<void, never, Storage>
  /** `tool_start_callback` / `tool_complete_callback`: a call to a tool the gateway has, around its execution. */
  readonly onToolStart?: (call: ExecutedToolCall) => Effect.Effect<void, never, Storage>
  readonly onToolComplete?: (call: ExecutedToolCall) => Effect.Effect<void, never, Storage>
  /**
   * Each model reply once received, with its text (possibly empty), before its tools run: where
   * Hermes' loop reports an assistant message to its progress callback (runs: reasoning.available).
   */
  readonly onAssistantReply?: (text: string) => Effect.Effect<void, never, Storage>
  /**
   * Hermes' approval guard stopped a tool (a flagged terminal command, or one the Script marks):
   * resolves with the user's choice, "interrupted" when the agent is stopped meanwhile. Only
   * /v1/runs can ask; elsewhere the tool answers "pending_approval".
   */
  readonly onToolApproval?: (call: ExecutedToolCall, match: DangerousMatch) => Effect.Effect<ApprovalChoice, never, Storage>
}

/** Tokens the session row accounts. */
export interface TokenCounts {
  readonly input_tokens: number
  readonly output_tokens: number
}

/**
 * One write of the session transcript (state.db): at a persistence point of the turn the
 * messages not written before, in order; once per answered model call that call and its tokens.
 */
export interface TranscriptWrite {
  readonly messages: ReadonlyArray<AgentMessage>
  readonly answeredCalls: number
  readonly tokens: TokenCounts
  /**
   * The turn-start write: the agent makes sure of its session row (`_ensure_db_session`, once per
   * agent). Later message writes do not make it again: a session deleted mid-turn stays gone until
   * an answered call's token write inserts a bare row.
   */
  readonly opensSession: boolean
}

export interface AgentTurnInput {
  readonly namespace: string
  /** The operation whose agent turn this is (a Script turn's `when.operation`). */
  readonly operation: AgentOperation
  /** The Hermes session the turn runs under (a Script turn's `when.sessionId`). */
  readonly sessionId: string
  readonly userMessage: unknown
  /**
   * The caller's system prompt (chat `system` messages, Responses/runs `instructions`, a session
   * chat's `system_message`): Hermes sends it after its own system prompt on every model call.
   */
  readonly ephemeralSystemPrompt?: string
  /** The caller's history; its dicts are shared with the transcript, as upstream shares them. */
  readonly history: ReadonlyArray<AgentMessage>
  readonly callbacks?: AgentTurnCallbacks
  /** Completes when the caller interrupts the agent (client gone, stop). */
  readonly interrupt?: Interrupt
  /**
   * The tools enabled for the api_server platform (default none, as in the oracle runner's home).
   * A model reply whose tool calls all name enabled tools is executed — with the tool callbacks, an
   * emulated result, and a paragraph break before the next streamed text, as Hermes does; any other
   * tool call is an unknown tool.
   */
  readonly enabledTools?: ReadonlySet<string>
  /** The approval session approvals are remembered under (the run id on /v1/runs). */
  readonly approvalSession?: string
  /**
   * Where the agent writes its session transcript, at the points Hermes does: turn start (the
   * session row and the user's message, before the first model call), before a round's tools
   * run, after each tool result, and at the turn's end. Absent: nothing is written. Answers how
   * many of the write's messages reached state.db: a message it refuses (an int past int64, a row
   * whose session is gone) ends the flush there, and it is tried again at the next point.
   */
  readonly persist?: (write: TranscriptWrite) => Effect.Effect<number, never, Storage>
}

export interface ExecutedToolCall {
  readonly id: string
  readonly name: string
  readonly arguments: string
  /** Set when the Script says Hermes' approval guard stops this call. */
  readonly approval?: ToolApproval
  /** Whether its result reads as a failure (ToolFailure.ts): a run's tool.completed `error`. */
  failed?: boolean
  /** What the tool answered the model; set before onToolComplete. */
  result?: string
}
