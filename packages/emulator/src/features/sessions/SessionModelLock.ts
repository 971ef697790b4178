/**
 * POST /api/sessions/{session_id}/model (0.21.0; the capabilities document's `session_model_lock`):
 * lock the session's later turns to a model. Built from the 0.21.0 reference notes only — the pin
 * cannot be started on this machine — so the envelope follows them exactly
 * (`{"object": "hermes.session.model_lock", "session_id", "runtime"}`, 404 `session_not_found`,
 * 400 for a body that is not a JSON object, 400 `missing_model`) while the message of
 * `missing_model` and the `runtime` fields (the documented `provider`/`model`/`route_source`
 * shape, `requested` echoing what was asked) are our reading, unverified.
 */
import { Effect } from "effect"
import { errorResponse } from "../../http/Envelopes.js"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import { pyStr, pyStrip } from "../../python/index.js"
import { existingSession, readObjectBody, sessionIdParam } from "./SessionRouteSupport.js"

/** The provider the oracle runner's home configures (config.yaml `model.provider`). */
const CONFIGURED_PROVIDER = "custom"

export const sessionModelLockRoute: Handler = (ctx) => Effect.gen(() => lockSessionModel(ctx))

function* lockSessionModel(ctx: RouteContext) {
  const id = sessionIdParam(ctx)
  const found = yield* existingSession(ctx, id)
  if (found._tag === "missing") return found.response
  const read = yield* readObjectBody(ctx)
  if (read._tag === "rejected") return read.response
  const model = read.body["model"] === undefined || read.body["model"] === null ? "" : pyStrip(pyStr(read.body["model"]))
  if (model === "") return errorResponse(400, "Missing 'model' field", { code: "missing_model" })
  const asked = read.body["provider"]
  const provider = asked === undefined || asked === null || pyStrip(pyStr(asked)) === "" ? CONFIGURED_PROVIDER : pyStrip(pyStr(asked))
  return jsonResponse({
    object: "hermes.session.model_lock",
    session_id: id,
    runtime: { provider, model, route_source: "raw_request", requested: { provider, model } }
  })
}
