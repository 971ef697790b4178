/** GET /api/jobs/{job_id}: the job as every read shows it (get_job matches the id exactly). */
import { Effect, Either } from "effect"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import { normalizeJob } from "./JobRecord.js"
import { loadJobs } from "./JobStore.js"
import { checkJobId, jobCrash, jobNotFound } from "./JobRouteSupport.js"

export const getJobRoute: Handler = (ctx) =>
  Effect.gen(() => showJob(ctx))

function* showJob(ctx: RouteContext) {
  const id = checkJobId(ctx)
  if (id._tag === "rejected") return id.response
  const stored = (yield* loadJobs(ctx.namespace)).find((j) => j["id"] === id.id)
  if (stored === undefined) return jobNotFound()
  const job = normalizeJob(stored)
  return Either.isLeft(job) ? jobCrash(job.left) : jsonResponse({ job: job.right })
}
