/**
 * The model calls a Script player answered, in order, with the messages exactly as the model got
 * them: the fake model keeps the chat-completions `messages` the real gateway sent, the emulator the
 * API messages its agent loop would send. A scenario's `modelCalls` step reads this log on both
 * targets and compares the two through one view (packages/diff/src/modelCalls/ModelCallView.ts),
 * so an emulator that plays the scripted replies right but sends the model another history fails.
 */
import { Schema } from "effect"

export const ReceivedCall = Schema.Struct({
  /** "main" for the agent's own calls; a housekeeping call names its task (title, compression, …). */
  kind: Schema.String,
  /** The OpenAI chat messages of the call, every field as sent. */
  messages: Schema.Array(Schema.Unknown)
})
export type ReceivedCall = typeof ReceivedCall.Type

/** GET /__admin/model-calls answers this (both targets). */
export const ReceivedCalls = Schema.Struct({ calls: Schema.Array(ReceivedCall) })
export type ReceivedCalls = typeof ReceivedCalls.Type
