/** GET /api/sessions: persisted sessions, most recently active first, one page. */
import { Effect } from "effect"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import { listSessions } from "./SessionList.js"
import { sessionView } from "./SessionView.js"
import { coerceRequestBool, parseNonNegativeInt } from "../../python/index.js"

export const listSessionsRoute: Handler = (ctx) => Effect.gen(() => listSessionPage(ctx))

function* listSessionPage(ctx: RouteContext) {
  const q = ctx.req.query
  const limit = parseNonNegativeInt(q.get("limit"), 50, 200)
  const offset = parseNonNegativeInt(q.get("offset"), 0, 1_000_000)
  const source = q.get("source")
  const sessions = yield* listSessions(ctx.namespace, {
    source: source === null || source === "" ? undefined : source,
    limit,
    offset,
    includeChildren: coerceRequestBool(q.get("include_children") ?? undefined, false),
    excludeArchived: ctx.features.sessionFlags
  })
  return jsonResponse({
    object: "list",
    data: sessions.map((s) => sessionView(s, ctx.features)),
    limit,
    offset,
    has_more: sessions.length === limit
  })
}
