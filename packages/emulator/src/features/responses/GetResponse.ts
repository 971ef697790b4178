/**
 * GET /v1/responses/{response_id}: the stored response object as it was last written (for a
 * stream: the in_progress, incomplete or terminal snapshot). Reading refreshes its LRU position.
 * Unknown id: 404 with the full envelope.
 */
import { Effect } from "effect"
import { errorResponse } from "../../http/Envelopes.js"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import { getStoredResponse } from "./ResponseStore.js"

export const getResponse: Handler = (ctx) =>
  Effect.gen(() => showStoredResponse(ctx))

function* showStoredResponse(ctx: RouteContext) {
  const responseId = ctx.params["response_id"] ?? ""
  const stored = yield* getStoredResponse(ctx.namespace, responseId, ctx.now())
  if (stored === undefined) return errorResponse(404, `Response not found: ${responseId}`)
  return jsonResponse(stored.response)
}
