/**
 * POST /api/sessions/{session_id}/fork, CLI /branch semantics: the source ends with "branched"
 * (unless it already ended), a child session copies its model, system prompt and active messages
 * (new ids, original timestamps), then gets the requested title or the next "title #N". The fork id
 * is only checked for CR/LF/NUL. A refused title answers 400 after the fork exists, as upstream's.
 * Each step takes the one connection anew, so another client's DELETE of the fork can commit before
 * the read back: upstream then still answers 201, with only the ids it knows.
 */
import { Effect, Either } from "effect"
import { errorResponse } from "../../http/Envelopes.js"
import { HandlerCrash, type Handler, type RouteContext } from "../../http/Route.js"
import { Ids } from "../../services/Ids.js"
import { hasControlBreak, newApiSessionId } from "./SessionIds.js"
import { nextTitleInLineage } from "./SessionLineage.js"
import { copyMessages } from "./SessionCopy.js"
import { endSession, getSession, setSessionTitle, upsertSession } from "./SessionStore.js"
import { existingSession, readObjectBody, sessionEnvelope, sessionIdParam, sessionViewEnvelope } from "./SessionRouteSupport.js"
import { vanishedForkView } from "./SessionView.js"
import { pyStr, pyStrip, pyTruthy, pyUtf8Encodable } from "../../python/index.js"

export const forkSessionRoute: Handler = (ctx) => Effect.gen(() => forkSession(ctx))

function* forkSession(ctx: RouteContext) {
  const sourceId = sessionIdParam(ctx)
  const found = yield* existingSession(ctx, sourceId)
  if (found._tag === "missing") return found.response
  const source = found.session
  const read = yield* readObjectBody(ctx)
  if (read._tag === "rejected") return read.response
  const body = read.body
  const ids = yield* Ids
  const rawId = pyTruthy(body["id"]) ? body["id"] : pyTruthy(body["session_id"]) ? body["session_id"] : undefined
  const forkId = pyStrip(rawId === undefined ? newApiSessionId(ids, ctx.now()) : pyStr(rawId))
  if (forkId === "" || hasControlBreak(forkId)) return errorResponse(400, "Invalid session ID", { code: "invalid_session_id" })
  // sqlite3 encodes parameters strictly: a lone surrogate in the id raises on the first query
  if (!pyUtf8Encodable(forkId)) return yield* new HandlerCrash({ reason: "UnicodeEncodeError: surrogates not allowed" })
  if ((yield* getSession(ctx.namespace, forkId)) !== undefined) {
    return errorResponse(409, `Session already exists: ${forkId}`, { code: "session_exists" })
  }
  yield* endSession(ctx.namespace, sourceId, "branched", ctx.now())
  yield* upsertSession(ctx.namespace, {
    id: forkId,
    source: "api_server",
    model: source.model,
    modelConfig: null,
    systemPrompt: source.system_prompt,
    parentSessionId: sourceId,
    startedAt: ctx.now()
  })
  yield* copyMessages(ctx.namespace, sourceId, forkId)
  const requested = body["title"] ?? null
  const title = requested === null ? yield* nextTitleInLineage(ctx.namespace, source.title || "fork") : pyStr(requested)
  const set = yield* setSessionTitle(ctx.namespace, forkId, title)
  if (Either.isLeft(set)) return errorResponse(400, set.left, { code: "invalid_title" })
  const fork = yield* getSession(ctx.namespace, forkId)
  if (fork === undefined) return sessionViewEnvelope(vanishedForkView(forkId, sourceId), 201)
  return sessionEnvelope(ctx, fork, 201)
}
