/** GET /health/detailed (bearer): bounded readiness; 200 even when degraded. */
import { Effect } from "effect"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler } from "../../http/Route.js"
import { detailedHealth } from "./HealthReadiness.js"

export const healthDetailed: Handler = (ctx) =>
  Effect.sync(() => jsonResponse(detailedHealth(ctx.gateway, ctx.features.version)))
