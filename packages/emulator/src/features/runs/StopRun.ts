/**
 * POST /v1/runs/{run_id}/stop: mark the run stopping and interrupt its agent. What a run with no
 * live task gets differs by pin (see the version table).
 */
import { Effect } from "effect"
import { errorResponse, runNotFound } from "../../http/Envelopes.js"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import { lookupRun } from "./RunLookup.js"
import { TERMINAL_STATUSES, type RunStatus } from "./RunRecord.js"
import { runsIn, type RunsServices } from "./Runs.js"

export const stopRun: Handler<RunsServices> = (ctx) => Effect.gen(() => stopLiveRun(ctx))

function* stopLiveRun(ctx: RouteContext<RunsServices>) {
  const runId = ctx.params["run_id"] ?? ""
  const known = yield* lookupRun(ctx, runId)
  if (yield* runsIn(ctx).stop(ctx.namespace, runId, ctx.now())) return jsonResponse({ run_id: runId, status: "stopping" })
  if (ctx.features.stopWithoutLiveTask === "not-found") return runNotFound(runId)
  if (known === undefined) return runNotFound(runId)
  if (TERMINAL_STATUSES.has(known["status"] as RunStatus)) return jsonResponse(known)
  return errorResponse(409, `Run is not active in this gateway process: ${runId}`, { code: "run_not_active" })
}
