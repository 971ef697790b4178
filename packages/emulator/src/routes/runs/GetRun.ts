/** GET /v1/runs/{run_id}: the pollable status, verbatim; 404 run_not_found otherwise. */
import { Effect } from "effect"
import { checkAuth } from "../../http/Auth.js"
import { runNotFound } from "../../http/Envelopes.js"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler } from "../../http/Route.js"
import { lookupRun } from "../../runs/RunLookup.js"

export const getRun: Handler = (ctx) =>
  Effect.gen(function*() {
    const denied = checkAuth(ctx)
    if (denied !== undefined) return denied
    const runId = ctx.params["run_id"] ?? ""
    const record = yield* lookupRun(ctx, runId)
    return record === undefined ? runNotFound(runId) : jsonResponse(record)
  })
