/** GET /v1/runs/{run_id}: the pollable status, verbatim; 404 run_not_found otherwise. */
import { mapNow } from "../../http/Immediate.js"
import { runNotFound } from "../../http/Envelopes.js"
import { jsonResponse, jsonTextResponse } from "../../http/Exchange.js"
import type { Handler } from "../../http/Route.js"
import type { RunsServices } from "./Runs.js"
import { findRun } from "./RunLookup.js"

export const getRun: Handler<RunsServices> = (ctx) => {
  const runId = ctx.params["run_id"] ?? ""
  return mapNow(findRun(ctx, runId), (found) => {
    switch (found._tag) {
      case "live":
        return jsonResponse(found.record)
      case "settled":
        return jsonTextResponse(found.run.body)
      case "absent":
        return runNotFound(runId)
    }
  })
}
