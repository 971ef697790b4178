/** DELETE /api/jobs/{job_id}: `{"ok": true}`, or 404. */
import { Effect, Either } from "effect"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import { removeJob } from "./JobRecord.js"
import { loadJobs, saveJobs } from "./JobStore.js"
import { checkJobId, jobCrash, jobNotFound } from "./JobRouteSupport.js"

export const deleteJobRoute: Handler = (ctx) =>
  Effect.gen(() => deleteJobById(ctx))

function* deleteJobById(ctx: RouteContext) {
  const id = checkJobId(ctx)
  if (id._tag === "rejected") return id.response
  const removed = removeJob(yield* loadJobs(ctx.namespace), id.id)
  if (Either.isLeft(removed)) return jobCrash(removed.left)
  if (removed.right === undefined) return jobNotFound()
  yield* saveJobs(ctx.namespace, removed.right)
  return jsonResponse({ ok: true })
}
