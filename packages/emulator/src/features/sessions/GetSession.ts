/** GET /api/sessions/{session_id}. */
import { Effect } from "effect"
import type { Handler, RouteContext } from "../../http/Route.js"
import { existingSession, sessionEnvelope, sessionIdParam } from "./SessionRouteSupport.js"

export const getSessionRoute: Handler = (ctx) => Effect.gen(() => lookUpSession(ctx))

function* lookUpSession(ctx: RouteContext) {
  const found = yield* existingSession(ctx, sessionIdParam(ctx))
  return found._tag === "missing" ? found.response : sessionEnvelope(ctx, found.session)
}
