/** The part of an OpenAI chat-completions request the fake model looks at. Extra fields are ignored. */
import type { ModelCall } from "@hermetic/script"
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

/** The request as the Script engine sees a model call. */
export const modelCallOf = (req: ChatRequest): ModelCall => ({
  messages: req.messages,
  ...(req.model === undefined ? {} : { model: req.model }),
  responseFormat: req.response_format
})
