/** GET /health and /v1/health (no auth). */
import { Effect } from "effect"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler } from "../../http/Route.js"

export const health: Handler = (ctx) =>
  Effect.succeed(jsonResponse({ status: "ok", platform: "hermes-agent", version: ctx.features.version }))
