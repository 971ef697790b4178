/**
 * The Script: what the model would have said. Both targets play the same Script through the one
 * cursor in this package — the emulator's Agent service directly, and the oracle runner's fake
 * model behind the real gateway.
 *
 * One agent turn (a chat completion, a response, a run, a session chat) consumes the next Turn.
 * A Turn holds the model replies of that turn in order: tool calls first, text last.
 */
import { Schema } from "effect"

export const ScriptVersion = 1 as const

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

export const Turn = Schema.Struct({
  replies: Schema.Array(Reply)
})
export type Turn = typeof Turn.Type

export const Script = Schema.Struct({
  version: Schema.optional(Schema.Literal(ScriptVersion)),
  turns: Schema.Array(Turn)
})
export type Script = typeof Script.Type

export const decodeScript = Schema.decodeUnknown(Script)
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
