/**
 * The session transcript an agent-running route hands its turn (AgentTurnInput.persist): each
 * write at one of the agent's persistence points goes to state.db under the session the turn runs
 * under, stamped with the wall clock at the moment of the write, as append_message stamps it.
 */
import type { TranscriptWrite } from "../../agent/AgentTurn.js"
import { recordAgentTurn } from "./AgentTurnRecord.js"

export const sessionTranscript = (ns: string, sessionId: string, now: () => number, source = "api_server") => (write: TranscriptWrite) =>
  recordAgentTurn(ns, {
    sessionId,
    messages: write.messages,
    answeredCalls: write.answeredCalls,
    tokens: write.tokens,
    opensSession: write.opensSession,
    now: now(),
    source
  })
