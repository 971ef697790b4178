/**
 * The Script: what the model would have said. Both targets play the same Script through the one
 * cursor in this package — the emulator's Agent service directly, and the oracle runner's fake
 * model behind the real gateway.
 *
 * One agent turn (a chat completion, a response, a run, a session chat) consumes the next Turn.
 * A Turn holds the model replies of that turn in order: tool calls first, text last.
 */
import { Schema } from "effect"

/** The Script format's version: 2 added `when` on turns; version 1 Scripts read unchanged. */
export const ScriptVersion = 2 as const

export const Usage = Schema.Struct({
  prompt_tokens: Schema.Number,
  completion_tokens: Schema.Number
})
export type Usage = typeof Usage.Type

/**
 * Marks a tool call that Hermes' approval guard stops for a user decision (a dangerous terminal
 * command, say). The real gateway decides this itself from the command; the emulator, which runs
 * no tools, needs to be told. The fake model ignores it.
 */
export const ToolApproval = Schema.Struct({
  command: Schema.optional(Schema.String),
  description: Schema.optional(Schema.String),
  patternKey: Schema.optional(Schema.String)
})
export type ToolApproval = typeof ToolApproval.Type

/** A tool call the model asks for; `arguments` is sent to Hermes as a JSON string. */
export const ToolCall = Schema.Struct({
  id: Schema.optional(Schema.String),
  name: Schema.String,
  arguments: Schema.optional(Schema.Union(Schema.String, Schema.Record({ key: Schema.String, value: Schema.Unknown }))),
  approval: Schema.optional(ToolApproval)
})
export type ToolCall = typeof ToolCall.Type

/** The model call fails with this HTTP status and OpenAI-style message. */
export const ReplyError = Schema.Struct({
  status: Schema.Number,
  message: Schema.String,
  type: Schema.optional(Schema.String)
})
export type ReplyError = typeof ReplyError.Type

export const Reply = Schema.Struct({
  /** Final text of this reply. With `chunks`, the concatenation of chunks should equal it. */
  text: Schema.optional(Schema.String),
  /** How the text is streamed; one stream delta per chunk. Defaults to one chunk holding `text`. */
  chunks: Schema.optional(Schema.Array(Schema.String)),
  toolCalls: Schema.optional(Schema.Array(ToolCall)),
  reasoning: Schema.optional(Schema.String),
  usage: Schema.optional(Usage),
  /** "stop" (default) or "length" (the model ran out of tokens). */
  finishReason: Schema.optional(Schema.Literal("stop", "length")),
  /** Keep this reply back until `POST /__admin/holds/{name}/release`. */
  hold: Schema.optional(Schema.String),
  error: Schema.optional(ReplyError)
})
export type Reply = typeof Reply.Type

/** A JavaScript regular expression source that compiles (with its flags). */
const isRegExp = (source: string, flags = ""): boolean => {
  try {
    new RegExp(source, flags)
    return true
  } catch {
    return false
  }
}

/** How a text is matched: exactly, by substring, or by a JavaScript regular expression. */
export const TextMatch = Schema.Union(
  Schema.Struct({ equals: Schema.String }),
  Schema.Struct({ contains: Schema.String }),
  Schema.Struct({
    matches: Schema.String,
    /** RegExp flags, e.g. "i"; `g` and `y` make no sense for a test and are refused. */
    flags: Schema.optional(Schema.String.pipe(Schema.pattern(/^[imsu]*$/)))
  }).pipe(Schema.filter((m) => isRegExp(m.matches, m.flags) || `not a valid regular expression: /${m.matches}/${m.flags ?? ""}`))
)
export type TextMatch = typeof TextMatch.Type

/**
 * The operations that run the agent, by the emulator's route ids (`cron` for a job's firing):
 * what `when.operation` names.
 */
export const AgentOperation = Schema.Literal(
  "chat.completions",
  "responses.create",
  "runs.create",
  "sessions.chat",
  "sessions.chat.stream",
  "cron"
)
export type AgentOperation = typeof AgentOperation.Type

/**
 * When a Turn applies: every field given must hold for the model call that would open it. A turn
 * with `when` is taken, before the queue, by the first call it matches, and by no other.
 */
export const When = Schema.Struct({
  /** The text of the last user message the model receives. */
  lastUserMessage: Schema.optional(TextMatch),
  /** The model the agent calls (its configured model, not the client's `model` field). */
  model: Schema.optional(Schema.String),
  /** The operation whose agent turn makes the call. Emulator only: the fake model cannot see it. */
  operation: Schema.optional(AgentOperation),
  /** The Hermes session the turn runs under. Emulator only: the fake model cannot see it. */
  sessionId: Schema.optional(Schema.String)
})
export type When = typeof When.Type

export const Turn = Schema.Struct({
  /** Absent: the turn is the queue's, taken in order. Present: taken by the first call it matches. */
  when: Schema.optional(When),
  replies: Schema.Array(Reply)
})
export type Turn = typeof Turn.Type

export const Script = Schema.Struct({
  version: Schema.optional(Schema.Literal(1, ScriptVersion)),
  turns: Schema.Array(Turn)
})
export type Script = typeof Script.Type

export const decodeScriptSync = Schema.decodeUnknownSync(Script)

/** The chunks a reply streams as: its explicit chunks, or its text as one chunk. */
export const replyChunks = (reply: Reply): ReadonlyArray<string> =>
  reply.chunks ?? (reply.text !== undefined && reply.text !== "" ? [reply.text] : [])

/** The full text of a reply: its text, or the concatenation of its chunks. */
export const replyText = (reply: Reply): string => reply.text ?? (reply.chunks ?? []).join("")

/** The answer to Hermes' own housekeeping calls (titles, memory, compression): never from the Script. */
export const HOUSEKEEPING_REPLY_TEXT = "ok"

/** What the model says to a call the Script has no reply for (both targets use this text). */
export const EXHAUSTED_REPLY_TEXT = "[hermetic: the script has no reply for this model call]"


/** The arguments string a scripted tool call is sent with: its string, or its object as JSON. */
export const toolArguments = (call: ToolCall): string =>
  call.arguments === undefined ? "{}" : typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments)

/** The finish reason a reply is sent with: its own, else "tool_calls" when it calls tools, else "stop". */
export const replyFinishReason = (reply: Reply): "stop" | "length" | "tool_calls" =>
  reply.finishReason ?? (reply.toolCalls !== undefined && reply.toolCalls.length > 0 ? "tool_calls" : "stop")
