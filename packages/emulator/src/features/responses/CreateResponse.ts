/**
 * POST /v1/responses (upstream `_handle_responses`): auth → draining → concurrency cap →
 * X-Hermes-Session-Key → body checks (responses/ResponseRequest.ts) → one agent turn, answered as
 * a whole response object or streamed (responses/ResponsesStream.ts). With `store` (the default)
 * the response is kept for GET and for chaining; a named `conversation` then points at it.
 * A non-streamed request with an Idempotency-Key reuses the agent outcome of an identical request
 * from the last 300 s, under a fresh response id.
 */
import { agentToolNames } from "../../agent/tools/ToolsetCatalog.js"
import { ephemeralSystemPromptOf } from "../../agent/ApiMessages.js"
import { Effect, Either } from "effect"
import { type AgentTurnResult, playAgentTurn } from "../../agent/AgentLoop.js"
import { type EmuResponse, jsonResponse } from "../../http/Exchange.js"
import { streamCorsHeaders } from "../../http/Middleware.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import { idempotencyCacheOf, requestFingerprint } from "../../idempotency/IdempotencyCache.js"
import { type ResponseRequest, parseResponseRequest } from "./ResponseRequest.js"
import { putStoredResponse, setConversation, sqlKey } from "./ResponseStore.js"
import { streamResponse } from "./ResponsesStream.js"
import { turnStartIndex } from "../../agent/TurnBoundary.js"
import { finalTextOf, outputItems, storedHistory } from "./ResponseTranscript.js"
import { Ids, type IdsShape, responseId as newResponseId } from "../../services/Ids.js"
import { sessionTranscript } from "../sessions/SessionTranscript.js"
import { admitAgentRequest, concurrencyLimited, parseSessionKeyHeader } from "../../http/Admission.js"
import { pyTruthy } from "../../python/index.js"
import { sessionIdHeader } from "../../http/HeaderText.js"

/** `str(uuid.uuid4())`: the session id of a response that does not continue a chain. */
const uuid4 = (ids: IdsShape): string => {
  const h = ids.hex(32)
  const variant = "89ab"[parseInt(h.charAt(16), 16) % 4] ?? "8"
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** `_run_agent`: the turn counts as in-flight agent work while it plays. */
const runTurn = (ctx: RouteContext, request: ResponseRequest, release: () => void, sessionId: string) =>
  Effect.suspend(() => {
    release()
    return ctx.gateway.agentTurnInFlight(
      playAgentTurn({
        namespace: ctx.namespace,
        operation: "responses.create",
        sessionId,
        userMessage: request.userMessage,
        history: request.history,
        ...ephemeralSystemPromptOf(request.instructions),
        enabledTools: agentToolNames(ctx.config.enabledToolsets),
        // the agent writes its turn to state.db under the response's session
        persist: sessionTranscript(ctx.namespace, sessionId, ctx.now)
      })
    )
  })

const modelOf = (ctx: RouteContext, body: Record<string, unknown>): unknown =>
  "model" in body ? body["model"] : ctx.config.modelName

export const createResponse: Handler = (ctx) =>
  admitAgentRequest(ctx, (release) => Effect.gen(() => answerResponse(ctx, release)))

function* answerResponse(ctx: RouteContext, release: () => void) {
  const limited = concurrencyLimited(ctx)
  if (limited !== undefined) return limited
  const sessionKey = parseSessionKeyHeader(ctx)
  if (sessionKey._tag === "rejected") return sessionKey.response
  const parsed = yield* parseResponseRequest(ctx)
  if (Either.isLeft(parsed)) return parsed.left
  const request = parsed.right
  const ids = yield* Ids
  const sessionId = typeof request.storedSessionId === "string" && request.storedSessionId !== ""
    ? request.storedSessionId
    : uuid4(ids)
  const headers: Array<readonly [string, string]> = [sessionIdHeader(sessionId)]
  if (sessionKey.key !== undefined) headers.push(["X-Hermes-Session-Key", sessionKey.key])

  if (request.stream) {
    release()
    return yield* streamResponse(ctx, {
      responseId: newResponseId(ids),
      model: modelOf(ctx, request.body),
      createdAt: Math.floor(ctx.now()),
      history: request.history,
      userMessage: request.userMessage,
      instructions: request.instructions,
      conversation: request.conversation,
      store: request.store,
      sessionId,
      // the headers of a prepared stream are final: upstream adds the CORS headers itself, first
      headers: [...streamCorsHeaders(ctx.config, ctx.req), ...headers]
    })
  }

  const key = ctx.req.headers["idempotency-key"] ?? ""
  const result: AgentTurnResult = key === ""
    ? yield* runTurn(ctx, request, release, sessionId)
    : yield* idempotencyCacheOf(ctx.gateway).getOrSet(
      key,
      requestFingerprint(request.py, ctx.features.responsesFingerprintKeys),
      ctx.now,
      runTurn(ctx, request, release, sessionId)
    )
  return yield* respond(ctx, request, result, sessionId, headers)
}

/** The response object, stored when asked, as upstream builds it after the turn. */
const respond = (
  ctx: RouteContext,
  request: ResponseRequest,
  result: AgentTurnResult,
  sessionId: string,
  headers: ReadonlyArray<readonly [string, string]>
): Effect.Effect<EmuResponse, never, Ids | import("@effect/sql").SqlClient.SqlClient> =>
  Effect.gen(() => respondWith(ctx, request, result, sessionId, headers))

function* respondWith(
  ctx: RouteContext,
  request: ResponseRequest,
  result: AgentTurnResult,
  sessionId: string,
  headers: ReadonlyArray<readonly [string, string]>
) {
  const ids = yield* Ids
  const finalText = finalTextOf(result)
  const responseId = newResponseId(ids)
  const createdAt = Math.floor(ctx.now())
  const history = storedHistory(ctx.features, request.history, request.userMessage, result, finalText)
  const start = turnStartIndex(ctx.features, request.history, request.userMessage, result)
  const response = {
    id: responseId,
    object: "response",
    status: "completed",
    created_at: createdAt,
    model: modelOf(ctx, request.body),
    output: outputItems(ctx.features, ids, result, start),
    usage: result.usage
  }
  if (request.store) {
    yield* putStoredResponse(
      ctx.namespace,
      responseId,
      { response, conversation_history: history, instructions: request.instructions, session_id: sessionId },
      ctx.now(),
      ctx.features.storedResponsesCap
    )
    const name = Either.getOrNull(sqlKey(request.conversation))
    if (pyTruthy(request.conversation) && name !== null) yield* setConversation(ctx.namespace, name, responseId)
  }
  return jsonResponse(response, 200, headers)
}
