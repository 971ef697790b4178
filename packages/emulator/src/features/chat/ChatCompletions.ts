/**
 * POST /v1/chat/completions, both pins. Order (0.19.0 source; 0.21.0 notes §4.3 agree):
 * auth → draining → concurrency cap → JSON → messages/content validation → X-Hermes-Session-Key →
 * X-Hermes-Session-Id (or the derived session id) → [0.21.0: provider vs model_routes] → the turn.
 * A rejected request changes nothing: no Script turn is consumed and nothing is cached.
 *
 * The turn is played from the Script by the shared agent loop. Non-streamed answers go through the
 * Idempotency-Key cache when the header is set (streamed ones never do); the answer is built from
 * the agent's outcome as upstream builds it (finish_reason, `hermes` block, X-Hermes-* headers,
 * 502 agent_incomplete). Streamed answers are SSE (see chat/ChatStream.ts).
 */
import { KEEPALIVE_AFTER } from "../../http/SseKeepalive.js"
import { Deferred, Effect, Either, Queue, Stream } from "effect"
import { Interrupt } from "../../agent/Interrupt.js"
import { ephemeralSystemPromptOf } from "../../agent/ApiMessages.js"
import { type AgentTurnCallbacks, type AgentTurnResult, playAgentTurn } from "../../agent/AgentLoop.js"
import { sessionTranscript } from "../sessions/SessionTranscript.js"
import type { AgentMessage } from "../../agent/AgentMessages.js"
import { type ChatTurnRequest, parseChatRequest } from "./ChatRequest.js"
import { errorHeaderValue, finishReasonOf, hermesBlock, usageBody } from "./ChatOutcome.js"
import { deriveChatSessionId, parseSessionIdHeader } from "./ChatSessionId.js"
import { chatStreamFrames, type StreamItem } from "./ChatStream.js"
import { completedPayload, isInternalTool, previewRaises, runningPayload } from "../../agent/tools/ToolProgress.js"
import { markAgentTurn } from "../../agent/AgentWarmth.js"
import { agentToolNames } from "../../agent/tools/ToolsetCatalog.js"
import { errorResponse } from "../../http/Envelopes.js"
import { type EmuResponse, jsonResponse, sseResponse } from "../../http/Exchange.js"
import { streamCorsHeaders } from "../../http/Middleware.js"
import { readJsonParsed } from "../../http/RequestBody.js"
import { HandlerCrash, type Handler, type RouteContext } from "../../http/Route.js"
import { idempotencyCacheOf, requestFingerprint } from "../../idempotency/IdempotencyCache.js"
import { chatCompletionId, Ids } from "../../services/Ids.js"
import { admitAgentRequest, concurrencyLimited, parseSessionKeyHeader } from "../../http/Admission.js"
import { advertisedModel } from "../discovery/Models.js"
import { PyDict } from "../../python/index.js"
import { sessionIdHeader } from "../../http/HeaderText.js"

type Headers = ReadonlyArray<readonly [string, string]>

type StreamEnv = { readonly id: string; readonly created: number; readonly model: unknown }

/** aiohttp's json_response(headers=…) puts the caller's headers before Content-Type. */
const jsonWithLeadingHeaders = (body: unknown, status: number, headers: Headers): EmuResponse => {
  const base = jsonResponse(body, status)
  return { ...base, headers: [...headers, ...base.headers] }
}

/** 0.21.0: a `provider` that contradicts the provider a model_routes alias is pinned to (notes §4.3). */
const routeConflict = (ctx: RouteContext, request: ChatTurnRequest): EmuResponse | undefined => {
  if (!ctx.features.chatProviderSelection) return undefined
  const provider = request.body["provider"]
  if (typeof provider !== "string" || provider.trim() === "" || typeof request.model !== "string") return undefined
  const route = ctx.config.modelRoutes[request.model]
  if (route?.provider === undefined || route.provider.trim().toLowerCase() === provider.trim().toLowerCase()) return undefined
  return errorResponse(
    400,
    `Model route '${request.model}' is pinned to provider '${route.provider}'. Remove 'provider' or use '${route.provider}'.`
  )
}

const agentHistory = (request: ChatTurnRequest): Array<AgentMessage> =>
  request.history.map((m) => ({ role: m.role, content: m.content }))

/** `_run_agent`: the admitted request becomes in-flight agent work for the turn's duration. */
const runTurn = (
  ctx: RouteContext,
  request: ChatTurnRequest,
  release: () => void,
  sessionId: string,
  callbacks?: AgentTurnCallbacks,
  interrupt?: Interrupt
) =>
  Effect.suspend(() => {
    release()
    const enabledTools = agentToolNames(ctx.config.enabledToolsets)
    markAgentTurn(ctx.gateway)
    return ctx.gateway.agentTurnInFlight(playAgentTurn({
      namespace: ctx.namespace,
      operation: "chat.completions",
      sessionId,
      userMessage: request.userMessage,
      ...ephemeralSystemPromptOf(request.systemPrompt),
      history: agentHistory(request),
      enabledTools,
      ...(callbacks === undefined ? {} : { callbacks }),
      ...(interrupt === undefined ? {} : { interrupt }),
      // the agent writes its turn to state.db under the chat's session
      persist: sessionTranscript(ctx.namespace, sessionId, ctx.now)
    }))
  })

const completionBody = (id: string, created: number, model: unknown, result: AgentTurnResult) => {
  const finish = finishReasonOf(result)
  const body: Record<string, unknown> = {
    id,
    object: "chat.completion",
    created,
    model,
    choices: [{ index: 0, message: { role: "assistant", content: result.finalResponse }, finish_reason: finish }],
    usage: usageBody(result)
  }
  if (result.partial || result.failed || !result.completed) body["hermes"] = hermesBlock(result, finish)
  return body
}

/** The non-streamed answer from the agent's outcome, with upstream's status and header rules. */
const completionResponse = (
  id: string,
  created: number,
  model: unknown,
  sessionHeaders: Headers,
  result: AgentTurnResult
): EmuResponse => {
  const incomplete: Headers = [
    ["X-Hermes-Completed", "false"],
    ["X-Hermes-Partial", result.partial ? "true" : "false"]
  ]
  if (result.finalResponse === "" && (result.failed || result.partial)) {
    const error = {
      message: result.error ?? "Agent run did not produce a response.",
      type: "server_error",
      param: null,
      code: "agent_incomplete",
      hermes: { completed: result.completed, partial: result.partial, failed: result.failed }
    }
    return jsonWithLeadingHeaders({ error }, 502, [...sessionHeaders, ...incomplete])
  }
  const notDone = result.partial || result.failed || !result.completed
  const errorHeader: Headers = result.error !== undefined && result.error !== "" ? [["X-Hermes-Error", errorHeaderValue(result.error)]] : []
  return jsonWithLeadingHeaders(completionBody(id, created, model, result), 200, [
    ...sessionHeaders,
    ...(notDone ? [...incomplete, ...errorHeader] : [])
  ])
}

const streamed = (
  ctx: RouteContext,
  request: ChatTurnRequest,
  release: () => void,
  env: StreamEnv,
  sessionHeaders: Headers
) => Effect.gen(() => startStreamedTurn(ctx, request, release, env, sessionHeaders))

function* startStreamedTurn(ctx: RouteContext, request: ChatTurnRequest, release: () => void, env: StreamEnv, sessionHeaders: Headers) {
  const items = yield* Queue.unbounded<StreamItem | null>()
  const result = yield* Deferred.make<AgentTurnResult>()
  const interrupt = new Interrupt()
  const put = (item: StreamItem) => Queue.offer(items, item).pipe(Effect.asVoid)
  // a "completed" is only sent for a call whose "running" was (internal tools are never shown)
  const shown = new Set<string>()
  const callbacks: AgentTurnCallbacks = {
    onDelta: (text) => put({ _tag: "delta", text }),
    onToolStart: (call) => {
      if (call.id === "" || isInternalTool(call.name)) return Effect.void
      shown.add(call.id)
      // the id is noted before the label is built, so a label that raises still lets "completed" through
      return previewRaises(call) ? Effect.void : put({ _tag: "tool", payload: runningPayload(call) })
    },
    onToolComplete: (call) => (shown.delete(call.id) ? put({ _tag: "tool", payload: completedPayload(call) }) : Effect.void)
  }
  // sessionHeaders starts with X-Hermes-Session-Id
  yield* runTurn(ctx, request, release, sessionHeaders[0]?.[1] ?? "", callbacks, interrupt).pipe(
    Effect.flatMap((r) => Deferred.succeed(result, r)),
    Effect.ensuring(Queue.offer(items, null)),
    Effect.forkDaemon
  )
  // A client that goes away interrupts the agent, as upstream's SSE writer does (the adapter
  // interrupts the stream when its client is gone: EmuBody in http/Exchange.ts)
  const frames = chatStreamFrames(env, items, result, KEEPALIVE_AFTER).pipe(Stream.ensuring(interrupt.set))
  // The headers of a prepared stream are final: upstream adds the CORS headers itself, first.
  return sseResponse(frames, [...streamCorsHeaders(ctx.config, ctx.req), ...sessionHeaders])
}

export const chatCompletions: Handler = (ctx) =>
  admitAgentRequest(ctx, (release) => Effect.gen(() => answerChatCompletion(ctx, release)))

function* answerChatCompletion(ctx: RouteContext, release: () => void) {
  const limited = concurrencyLimited(ctx)
  if (limited !== undefined) return limited
  const parsed = readJsonParsed(yield* ctx.readBody)
  const parse = parseChatRequest(Either.map(parsed, (p) => p.value), advertisedModel(ctx))
  if (parse._tag === "crash") return yield* new HandlerCrash({ reason: parse.reason })
  if (parse._tag === "rejected") return parse.response
  const request = parse.request
  const sessionKey = parseSessionKeyHeader(ctx)
  if (sessionKey._tag === "rejected") return sessionKey.response
  const namedSession = parseSessionIdHeader(ctx)
  if (namedSession._tag === "rejected") return namedSession.response
  const sessionId = namedSession._tag === "given"
    ? namedSession.sessionId
    : deriveChatSessionId(request.systemPrompt, request.firstUserContent)
  const conflict = routeConflict(ctx, request)
  if (conflict !== undefined) return conflict

  const id = chatCompletionId(yield* Ids)
  const created = Math.floor(ctx.now())
  const sessionHeaders: Headers = [
    sessionIdHeader(sessionId),
    ...(sessionKey.key === undefined ? [] : [["X-Hermes-Session-Key", sessionKey.key] as const])
  ]
  if (request.stream) return yield* streamed(ctx, request, release, { id, created, model: request.model }, sessionHeaders)

  const key = ctx.req.headers["idempotency-key"] ?? ""
  const turn = runTurn(ctx, request, release, sessionId)
  const py = Either.isRight(parsed) ? parsed.right.py : undefined
  const result = key === "" || !(py instanceof PyDict)
    ? yield* turn
    : yield* idempotencyCacheOf(ctx.gateway).getOrSet(
      key,
      requestFingerprint(py, ctx.features.chatIdempotencyFingerprintKeys),
      ctx.now,
      turn
    )
  return completionResponse(id, created, request.model, sessionHeaders, result)
}
