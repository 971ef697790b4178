/** GET /health/detailed (bearer): bounded readiness; 200 even when degraded. */
import { Effect } from "effect"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler } from "../../http/Route.js"
import { activeApiRuns, runsIn, type RunsServices } from "../runs/Runs.js"
import { detailedHealth } from "./HealthReadiness.js"

export const healthDetailed: Handler<RunsServices> = (ctx) =>
  Effect.sync(() => jsonResponse(detailedHealth(ctx.gateway, activeApiRuns(runsIn(ctx)), ctx.features.version)))
