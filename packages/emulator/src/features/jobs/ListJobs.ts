/** GET /api/jobs: enabled jobs (all with ?include_disabled=true|1), each with its latest execution. */
import { Effect, Either } from "effect"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import { normalizeJob } from "./JobRecord.js"
import { latestExecution, loadJobs } from "./JobStore.js"
import { jobCrash } from "./JobRouteSupport.js"
import { pyStr, pyTruthy } from "../../python/index.js"

export const listJobsRoute: Handler = (ctx) =>
  Effect.gen(() => listJobsWithExecutions(ctx))

function* listJobsWithExecutions(ctx: RouteContext) {
  const includeDisabled = ["true", "1"].includes((ctx.req.query.get("include_disabled") ?? "").toLowerCase())
  const out: Array<Record<string, unknown>> = []
  for (const stored of yield* loadJobs(ctx.namespace)) {
    const job = normalizeJob(stored)
    if (Either.isLeft(job)) return jobCrash(job.left)
    if (!includeDisabled && "enabled" in job.right && !pyTruthy(job.right["enabled"])) continue
    out.push(job.right)
  }
  for (const job of out) job["latest_execution"] = yield* latestExecution(ctx.namespace, pyStr(job["id"]))
  return jsonResponse({ jobs: out })
}
