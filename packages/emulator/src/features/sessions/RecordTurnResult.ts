/**
 * The one call an agent-running route makes once its turn has settled: write the turn of a
 * played agent loop (agent/AgentLoop's result) to the session it ran under. The turn is the
 * transcript from its user message on; the caller's history is not written again.
 */
import { recordAgentTurn, type TurnMessage } from "./AgentTurnRecord.js"
import { answeredCalls } from "./TurnMessages.js"

export interface PlayedTurn {
  readonly messages: ReadonlyArray<TurnMessage>
  /** Where the agent loop's replies start (its user message is just before); absent: the last user message. */
  readonly turnStart?: number
  readonly usage: { readonly input_tokens: number; readonly output_tokens: number }
}

/** The turn's own messages: from the last user message of the transcript (the turn's, after any repair merge). */
export const ownTurn = (messages: ReadonlyArray<TurnMessage>): ReadonlyArray<TurnMessage> => {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.["role"] === "user") return messages.slice(i)
  return messages
}

export const recordPlayedTurn = (ns: string, sessionId: string, played: PlayedTurn, now: number, source = "api_server") => {
  // Hermes' own nudges (a length continuation) are user messages inside the turn: start at the turn's own
  const turn = played.turnStart !== undefined && played.turnStart > 0 ? played.messages.slice(played.turnStart - 1) : ownTurn(played.messages)
  return recordAgentTurn(ns, { sessionId, messages: turn, calls: answeredCalls(turn, played.usage), now, source })
}
