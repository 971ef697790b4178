/**
 * GET /api/sessions/{session_id}/messages: the active transcript of the session's resume target
 * (see resolveResumeSessionId), which upstream reports as `session_id`. 0.21.0 pages it.
 */
import { Effect } from "effect"
import { errorResponse } from "../../http/Envelopes.js"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import { resolveResumeSessionId } from "./SessionLineage.js"
import { countMessages, getMessages } from "./SessionStore.js"
import { messageView } from "./SessionView.js"
import { existingSession, sessionIdParam } from "./SessionRouteSupport.js"
import { pyIntParse } from "../../python/index.js"

const MAX_PAGE = 500

type Page = { readonly limit: number; readonly offset: number; readonly order: "oldest" | "latest" }

/** 0.21.0 pagination (reference notes; the error text is inferred): limit ≤ 500, offset ≥ 0, order. */
const parsePage = (q: URLSearchParams): Page | undefined => {
  const int = (name: string, fallback: number): number | undefined => {
    const raw = q.get(name)
    if (raw === null || raw === "") return fallback
    const n = pyIntParse(raw)
    return n === undefined || n < 0n ? undefined : Number(n)
  }
  const limit = int("limit", MAX_PAGE)
  const offset = int("offset", 0)
  const order = q.get("order") ?? "latest"
  if (limit === undefined || offset === undefined || limit > MAX_PAGE || (order !== "oldest" && order !== "latest")) {
    return undefined
  }
  return { limit, offset, order }
}

export const sessionMessagesRoute: Handler = (ctx) => Effect.gen(() => readTranscript(ctx))

function* readTranscript(ctx: RouteContext) {
  const id = sessionIdParam(ctx)
  const found = yield* existingSession(ctx, id)
  if (found._tag === "missing") return found.response
  const resolved = yield* resolveResumeSessionId(ctx.namespace, id)
  if (!ctx.features.sessionMessagesPagination) {
    const messages = yield* getMessages(ctx.namespace, resolved)
    return jsonResponse({ object: "list", session_id: resolved, data: messages.map(messageView) })
  }
  const page = parsePage(ctx.req.query)
  if (page === undefined) return errorResponse(400, "Invalid pagination parameters", { code: "invalid_pagination" })
  // "latest" pages count back from the newest message and are returned oldest first
  const total = yield* countMessages(ctx.namespace, resolved)
  const start = page.order === "oldest" ? page.offset : Math.max(0, total - page.offset - page.limit)
  const end = page.order === "oldest" ? page.offset + page.limit : Math.max(0, total - page.offset)
  const messages = end <= start ? [] : yield* getMessages(ctx.namespace, resolved, { limit: end - start, offset: start })
  return jsonResponse({
    object: "list",
    session_id: resolved,
    data: messages.map(messageView),
    pagination: { limit: page.limit, offset: page.offset, order: page.order, returned: messages.length }
  })
}
