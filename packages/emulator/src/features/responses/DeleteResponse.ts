/**
 * DELETE /v1/responses/{response_id}: removes the stored response and any conversation name
 * pointing at it; `{"id", "object": "response", "deleted": true}`, or 404 when nothing was stored.
 */
import { Effect } from "effect"
import { errorResponse } from "../../http/Envelopes.js"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import { deleteStoredResponse } from "./ResponseStore.js"

export const deleteResponse: Handler = (ctx) =>
  Effect.gen(() => deleteResponseById(ctx))

function* deleteResponseById(ctx: RouteContext) {
  const responseId = ctx.params["response_id"] ?? ""
  const deleted = yield* deleteStoredResponse(ctx.namespace, responseId)
  if (!deleted) return errorResponse(404, `Response not found: ${responseId}`)
  return jsonResponse({ id: responseId, object: "response", deleted: true })
}
