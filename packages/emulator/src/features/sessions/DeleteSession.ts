/**
 * DELETE /api/sessions/{session_id}: the row and its messages go, children are orphaned. Nothing
 * else remembers the id: a later turn under the same id (a chat completion deriving it, a run or
 * response naming it) starts a fresh session row, and X-Hermes-Session-Id history is then empty.
 */
import { Effect } from "effect"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import { deleteSession } from "./SessionStore.js"
import { existingSession, sessionIdParam } from "./SessionRouteSupport.js"

export const deleteSessionRoute: Handler = (ctx) => Effect.gen(() => deleteExistingSession(ctx))

function* deleteExistingSession(ctx: RouteContext) {
  const id = sessionIdParam(ctx)
  const found = yield* existingSession(ctx, id)
  if (found._tag === "missing") return found.response
  const deleted = yield* deleteSession(ctx.namespace, id)
  return jsonResponse({ object: "hermes.session.deleted", id, deleted })
}
