/** The part of an OpenAI chat-completions request the fake model looks at. Extra fields are ignored. */
import { Schema } from "effect"

export const ChatMessage = Schema.Struct({
  role: Schema.String,
  content: Schema.optional(Schema.Unknown)
})
export type ChatMessage = typeof ChatMessage.Type

export const ChatRequest = Schema.Struct({
  model: Schema.optional(Schema.String),
  messages: Schema.Array(ChatMessage),
  stream: Schema.optional(Schema.NullOr(Schema.Boolean)),
  stream_options: Schema.optional(Schema.NullOr(Schema.Struct({ include_usage: Schema.optional(Schema.Boolean) }))),
  tools: Schema.optional(Schema.NullOr(Schema.Array(Schema.Unknown))),
  response_format: Schema.optional(Schema.Unknown),
  max_tokens: Schema.optional(Schema.Unknown)
})
export type ChatRequest = typeof ChatRequest.Type

export const decodeChatRequest = Schema.decodeUnknownEither(ChatRequest)

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
