/**
 * GET /v1/models (bearer): the advertised model (API_SERVER_MODEL_NAME → profile name → hermes-agent),
 * then one entry per model_routes alias other than it; `created` is the request's time.time(), as
 * an int, from the namespace clock. A /p/<profile>/ prefix the gateway accepts (0.21.0, own profile)
 * re-resolves the name for that profile without the explicit override (inferred from the notes:
 * `_resolve_model_name("")` under the request's profile scope); 0.19.0 ignores the prefix.
 */
import { Effect } from "effect"
import { resolveModelName } from "../../config/EmulatorConfig.js"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler, RouteContext } from "../../http/Route.js"

export const advertisedModel = (ctx: RouteContext): string => {
  const profile = ctx.params["profile"]?.trim()
  if (profile !== undefined && profile !== "" && ctx.features.profilePrefixWithoutMultiplex === "own-profile-only") {
    return resolveModelName(undefined, profile)
  }
  return ctx.config.modelName
}

export const listModels: Handler = (ctx) =>
  Effect.sync(() => {
    const created = Math.floor(ctx.now())
    const model = advertisedModel(ctx)
    const entry = (id: string, root: string, parent: string | null) => ({
      id,
      object: "model",
      created,
      owned_by: "hermes",
      permission: [],
      root,
      parent
    })
    const aliases = Object.entries(ctx.config.modelRoutes)
      .filter(([alias]) => alias !== model)
      .map(([alias, route]) => entry(alias, route.model, model))
    return jsonResponse({ object: "list", data: [entry(model, model, null), ...aliases] })
  })
