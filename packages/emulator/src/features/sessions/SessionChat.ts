/**
 * POST /api/sessions/{session_id}/chat: one synchronous agent turn on the session, played from the
 * Script. A model error is not an HTTP error: upstream answers 200 with Hermes' summary of it as
 * the assistant's content and zero usage, and only the user's message is written to the session.
 */
import { agentToolNames } from "../../agent/tools/ToolsetCatalog.js"
import { Effect } from "effect"
import { playAgentTurn } from "../../agent/AgentLoop.js"
import { ephemeralSystemPromptOf } from "../../agent/ApiMessages.js"
import { type EmuResponse, JSON_CONTENT_TYPE } from "../../http/Exchange.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import { sessionTranscript } from "./SessionTranscript.js"
import { parseSessionChat } from "./SessionChatRequest.js"
import { sessionConversation } from "./SessionConversation.js"
import { admitAgentRequest } from "../../http/Admission.js"
import { pyDumps } from "../../python/index.js"
import { sessionIdHeader } from "../../http/HeaderText.js"

export const sessionChatRoute: Handler = (ctx) =>
  admitAgentRequest(ctx, (release) => Effect.gen(() => playSessionChat(ctx, release)))

function* playSessionChat(ctx: RouteContext, release: () => void) {
  const parsed = yield* parseSessionChat(ctx)
  if (parsed._tag === "rejected") return parsed.response
  const { sessionId, sessionKey, userMessage, systemPrompt } = parsed.request
  // the turn plays on the session's stored transcript, as upstream's agent does
  const history = yield* sessionConversation(ctx.namespace, sessionId)
  release()
  const result = yield* ctx.gateway.agentTurnInFlight(playAgentTurn({
    namespace: ctx.namespace,
    operation: "sessions.chat",
    sessionId,
    userMessage,
    ...ephemeralSystemPromptOf(systemPrompt),
    history,
    enabledTools: agentToolNames(ctx.config.enabledToolsets),
    persist: sessionTranscript(ctx.namespace, sessionId, ctx.now)
  }))
  const headers: Array<readonly [string, string]> = [sessionIdHeader(sessionId)]
  if (sessionKey !== undefined) headers.push(["X-Hermes-Session-Key", sessionKey])
  // aiohttp writes the handler's own headers before the JSON content type
  return {
    status: 200,
    headers: [...headers, ["Content-Type", JSON_CONTENT_TYPE]],
    body: {
      _tag: "bytes",
      bytes: new TextEncoder().encode(
        pyDumps({
          object: "hermes.session.chat.completion",
          session_id: sessionId,
          message: { role: "assistant", content: result.finalResponse },
          usage: result.usage
        })
      )
    }
  } satisfies EmuResponse
}
