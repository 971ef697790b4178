/**
 * Where the agent's own turn starts in the transcript it returns, as the gateway finds it after
 * the turn. 0.19.0 (`_response_messages_turn_start_index`) compares the transcript by value
 * (Python `==`) with the history it passed in — the very dicts the agent's repair may have
 * rewritten in place — first with the user message appended, then alone; when neither prefix
 * matches it answers 0 and the whole transcript counts as the turn. 0.21.0 takes the agent's own
 * turn start (`responsesTurnBoundary`, see version/Pins.ts). The Responses API and the session
 * chat stream's run.completed both read the turn this way.
 */
import type { Features } from "../version/Pins.js"
import { type AgentMessage, startsWith } from "./AgentMessages.js"

/** The part of a turn result the boundary is read from. */
export interface TurnTranscript {
  readonly messages: ReadonlyArray<AgentMessage>
  /** Index of the turn's first reply in `messages` (after the repaired history and the user message). */
  readonly turnStart: number
}

export const turnStartIndex = (
  features: Features,
  history: ReadonlyArray<AgentMessage>,
  userMessage: unknown,
  transcript: TurnTranscript
): number => {
  const messages = transcript.messages
  if (messages.length === 0) return 0
  if (features.responsesTurnBoundary === "current-turn") return transcript.turnStart
  const expected = [...history, { role: "user", content: userMessage }]
  if (startsWith(messages, expected)) return expected.length
  if (history.length > 0 && startsWith(messages, history)) return history.length
  return 0
}
