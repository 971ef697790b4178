/**
 * POST /v1/runs/{run_id}/stop: mark the run stopping and interrupt its agent. What a run with no
 * live task gets differs by pin (see the version table).
 */
import { Deferred, Effect } from "effect"
import { errorResponse, runNotFound } from "../../http/Envelopes.js"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler } from "../../http/Route.js"
import { lookupRun } from "../../runs/RunLookup.js"
import { TERMINAL_STATUSES, type RunStatus } from "../../runs/RunRecord.js"
import { writeRunStatus } from "../../runs/RunStatusWriter.js"

export const stopRun: Handler = (ctx) =>
  Effect.gen(function*() {
    const gw = ctx.gateway
    const runId = ctx.params["run_id"] ?? ""
    const known = yield* lookupRun(ctx, runId)
    const live = gw.liveRuns.get(runId)
    if (live === undefined) {
      if (ctx.features.stopWithoutLiveTask === "not-found") return runNotFound(runId)
      const record = known
      if (record === undefined) return runNotFound(runId)
      if (TERMINAL_STATUSES.has(record["status"] as RunStatus)) return jsonResponse(record)
      return errorResponse(409, `Run is not active in this gateway process: ${runId}`, { code: "run_not_active" })
    }
    yield* writeRunStatus(gw, ctx.namespace, runId, "stopping", ctx.now(), { last_event: "run.stopping" })
    live.stopping = true
    if (live.agentStarted) yield* Deferred.succeed(live.interrupt, undefined)
    return jsonResponse({ run_id: runId, status: "stopping" })
  })
