/**
 * PATCH /api/sessions/{session_id}: title and end_reason (0.21.0 adds the pinned/archived/hidden/
 * unread flags). The 404 comes before the body is read; unknown fields are refused before anything
 * changes; a title is applied before end_reason, and only a pyTruthy end_reason ends the session
 * (the first end_reason wins).
 */
import { SqlClient } from "@effect/sql"
import { Effect, Either } from "effect"
import { errorResponse } from "../../http/Envelopes.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import { endSession, getSession, setSessionTitle } from "./SessionStore.js"
import { existingSession, readObjectBody, sessionEnvelope, sessionIdParam } from "./SessionRouteSupport.js"
import { compareCodePoints, pyStr, pyTruthy } from "../../python/index.js"

const BASE_FIELDS = ["title", "end_reason"]
const FLAG_FIELDS = ["pinned", "archived", "hidden", "unread"] as const

export const patchSessionRoute: Handler = (ctx) => Effect.gen(() => patchSession(ctx))

function* patchSession(ctx: RouteContext) {
  const id = sessionIdParam(ctx)
  const found = yield* existingSession(ctx, id)
  if (found._tag === "missing") return found.response
  const read = yield* readObjectBody(ctx)
  if (read._tag === "rejected") return read.response
  const body = read.body
  const allowed = new Set<string>(ctx.features.sessionFlags ? [...BASE_FIELDS, ...FLAG_FIELDS] : BASE_FIELDS)
  const unknown = Object.keys(body).filter((k) => !allowed.has(k)).sort(compareCodePoints)
  if (unknown.length > 0) {
    return errorResponse(400, `Unsupported session fields: ${unknown.join(", ")}`, { code: "unsupported_session_field" })
  }
  // 0.21.0 flags (inferred from the reference notes): booleans only, checked before any write
  for (const flag of FLAG_FIELDS) {
    if (flag in body && typeof body[flag] !== "boolean") {
      return errorResponse(400, `${flag} must be a boolean`, { code: "invalid_session_field" })
    }
  }
  const sql = yield* SqlClient.SqlClient
  if ("title" in body) {
    const raw = body["title"]
    const set = yield* setSessionTitle(ctx.namespace, id, raw === null ? "" : pyStr(raw))
    if (Either.isLeft(set)) return errorResponse(400, set.left, { code: "invalid_title" })
  }
  if (pyTruthy(body["end_reason"])) yield* endSession(ctx.namespace, id, pyStr(body["end_reason"]), ctx.now())
  for (const flag of FLAG_FIELDS) {
    const value = body[flag]
    if (typeof value === "boolean") {
      yield* sql.unsafe(`UPDATE hermes_sessions SET ${flag} = ? WHERE namespace = ? AND id = ?`, [value ? 1 : 0, ctx.namespace, id]).pipe(
        Effect.orDie
      )
    }
  }
  const session = (yield* getSession(ctx.namespace, id)) ?? found.session
  return sessionEnvelope(ctx, session)
}
