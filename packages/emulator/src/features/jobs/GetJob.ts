/** GET /api/jobs/{job_id}: the job as every read shows it (get_job matches the id exactly). */
import { Effect, Either } from "effect"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import { normalizeJob } from "./JobRecord.js"
import { loadJob } from "./JobStore.js"
import { checkJobId, jobCrash, jobNotFound } from "./JobRouteSupport.js"

export const getJobRoute: Handler = (ctx) =>
  Effect.gen(() => showJob(ctx))

function* showJob(ctx: RouteContext) {
  const checked = checkJobId(ctx)
  if (Either.isLeft(checked)) return checked.left
  const id = checked.right
  const stored = yield* loadJob(ctx.namespace, id)
  if (stored === undefined) return jobNotFound()
  const job = normalizeJob(stored)
  return Either.isLeft(job) ? jobCrash(job.left) : jsonResponse({ job: job.right })
}
