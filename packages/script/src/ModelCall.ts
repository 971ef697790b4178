/**
 * A model call as the Script engine sees it, and what kind of call it is: Hermes' own
 * housekeeping (answered with a fixed default, never from the Script), a call that opens an agent
 * turn, or a call that continues the current one.
 *
 * Both targets describe their calls this way — the fake model from the chat-completions request
 * Hermes sent, the emulator from the transcript its agent loop would send — and both recognise
 * continuations by this one function, so they cannot disagree about turn boundaries.
 *
 * The markers are the fixed prompts Hermes sends for each auxiliary task (read from the 0.19.0
 * source and confirmed by the journal of live runs). With `platform_toolsets.api_server: []`,
 * memory off, compression off and titles off, 0.19.0 made none of the housekeeping calls in our
 * runs; they stay recognised so that a config change cannot make them silently eat Script turns.
 */
import type { AgentOperation } from "./Script.js"

/** One message of a model call: only the role and content matter to the engine. */
export interface CallMessage {
  readonly role: string
  readonly content?: unknown
}

export interface ModelCall {
  readonly messages: ReadonlyArray<CallMessage>
  /** The model the call names (the fake model sees what Hermes sends; the emulator its agent's model). */
  readonly model?: string
  /** OpenAI `response_format`: Hermes asks for a JSON schema when it wants a session title. */
  readonly responseFormat?: unknown
  /** The operation whose agent turn makes the call: only the emulator knows it. */
  readonly operation?: AgentOperation
  /** The Hermes session the turn runs under: only the emulator knows it. */
  readonly sessionId?: string
  /**
   * The messages as the model receives them, every field (tool calls, tool results, the system
   * prompt): what the player logs (ReceivedCalls.ts). `messages` when absent.
   */
  readonly wire?: ReadonlyArray<unknown>
}

export type Housekeeping =
  | "title"
  | "compression"
  | "background_review"
  | "goal_judge"
  | "curator"
  | "vision"

/**
 * Main-agent calls that continue the current turn even though their last message is a user message.
 * A length continuation is only one when it follows the cut-off reply (see classifyModelCall); the
 * request alone cannot tell it from a user who typed the same text after a finished answer, so the
 * cursor also asks whether the turn's last reply was cut (ScriptCursor's `afterCutReply`).
 */
export type Continuation = "iteration_limit_summary" | "length_continuation"

export type Classification =
  | { readonly kind: "housekeeping"; readonly task: Housekeeping }
  | { readonly kind: "opens-turn" }
  | { readonly kind: "continues-turn"; readonly continuation?: Continuation }

/** Text of a message's content, whether a string or a list of OpenAI content parts. */
export const contentText = (content: unknown): string => {
  if (typeof content === "string") return content
  if (Array.isArray(content)) {
    return content
      .map((p: unknown) =>
        typeof p === "object" && p !== null && "text" in p && typeof (p as { text: unknown }).text === "string"
          ? (p as { text: string }).text
          : ""
      )
      .join("")
  }
  return ""
}

const systemText = (call: ModelCall): string =>
  call.messages.filter((m) => m.role === "system" || m.role === "developer").map((m) => contentText(m.content)).join("\n")

/** The text of the call's last user message ("" when there is none). */
export const lastUserText = (call: ModelCall): string => {
  for (let i = call.messages.length - 1; i >= 0; i--) {
    const m = call.messages[i]
    if (m?.role === "user") return contentText(m.content)
  }
  return ""
}

const jsonSchemaName = (call: ModelCall): string | undefined => {
  const rf = call.responseFormat
  if (typeof rf !== "object" || rf === null || !("json_schema" in rf)) return undefined
  const js = (rf as { json_schema: unknown }).json_schema
  return typeof js === "object" && js !== null && "name" in js && typeof (js as { name: unknown }).name === "string"
    ? (js as { name: string }).name
    : undefined
}

/**
 * The user message Hermes appends after a reply cut off by the output length limit (wire-visible
 * in sessions). The emulator sends exactly this; the recogniser below accepts Hermes' other
 * "go on" prompts (a stream cut by a network error, an oversized tool call) as well.
 */
export const LENGTH_CONTINUATION_PROMPT =
  "[System: Your previous response was truncated by the output length limit. Continue exactly where you left off. Do not restart or repeat prior text. Finish the answer directly.]"

/** Hermes' own user-role prompts that ask the model to go on within the same agent turn. */
export const continuationOf = (userText: string): Continuation | undefined => {
  if (userText.startsWith("You've reached the maximum number of tool-calling iterations")) return "iteration_limit_summary"
  if (
    userText.startsWith("[System: Your previous response was truncated") ||
    userText.startsWith("[System: The previous response was cut off") ||
    userText.startsWith("[System: Your previous tool call (")
  ) return "length_continuation"
  return undefined
}

export const classifyModelCall = (call: ModelCall): Classification => {
  const sys = systemText(call)
  const user = lastUserText(call)
  if (
    jsonSchemaName(call) === "session_title" ||
    sys.startsWith("You name chat sessions") ||
    sys.startsWith("Generate a short, descriptive title")
  ) return { kind: "housekeeping", task: "title" }
  if (sys.includes("You are a summarization agent") || sys.includes("context checkpoint")) {
    return { kind: "housekeeping", task: "compression" }
  }
  if (user.startsWith("Review the conversation above")) return { kind: "housekeeping", task: "background_review" }
  // a user-attached image on a text-only main model: an auxiliary vision call describes it first
  // (observed live on 0.19.0 for inline data: images; the second prompt is the vision_analyze tool's)
  if (
    user.startsWith("Describe everything visible in this image") ||
    user.startsWith("Fully describe and explain everything about this image")
  ) return { kind: "housekeeping", task: "vision" }
  if (sys.startsWith("You are a strict judge")) return { kind: "housekeeping", task: "goal_judge" }
  if (sys.includes("You are the skill curator") || sys.includes("skill library curator")) return { kind: "housekeeping", task: "curator" }
  const continuation = continuationOf(user)
  if (continuation === "iteration_limit_summary") return { kind: "continues-turn", continuation }
  // 0.19.0 appends the cut-off reply as an assistant message right before its "go on" prompt
  // (agent/conversation_loop.py: interim_msg, then continue_msg), and strips finish_reason from
  // what it sends: the same text from the user, with no assistant message before it, is a turn
  if (continuation !== undefined && call.messages.at(-2)?.role === "assistant") return { kind: "continues-turn", continuation }
  // a call whose last message is a tool result (or an assistant message) continues the turn
  return call.messages.at(-1)?.role === "user" ? { kind: "opens-turn" } : { kind: "continues-turn" }
}

/** The fixed answer to a housekeeping call: JSON when Hermes asked for a JSON schema, plain text otherwise. */
export const housekeepingText = (call: ModelCall, task: Housekeeping, fallback: string): string =>
  task === "title" && jsonSchemaName(call) === "session_title" ? JSON.stringify({ title: fallback }) : fallback

/** Identity of a call, for recognising Hermes' retry of the same request. */
export const callFingerprint = (call: ModelCall): string =>
  JSON.stringify(call.messages.map((m) => ({ role: m.role, content: m.content })))
