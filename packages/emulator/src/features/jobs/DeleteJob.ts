/** DELETE /api/jobs/{job_id}: `{"ok": true}`, or 404. */
import { Effect, Either } from "effect"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import { resolveJobRef } from "./JobRecord.js"
import { deleteJob, loadJob, loadJobs } from "./JobStore.js"
import { checkJobId, jobCrash, jobNotFound } from "./JobRouteSupport.js"
import { pyStr } from "../../python/index.js"

export const deleteJobRoute: Handler = (ctx) =>
  Effect.gen(() => deleteJobById(ctx))

function* deleteJobById(ctx: RouteContext) {
  const checked = checkJobId(ctx)
  if (Either.isLeft(checked)) return checked.left
  const id = checked.right
  // by id, one indexed row; only a ref that is no job's id reads the list (it may be a name)
  const byId = yield* loadJob(ctx.namespace, id)
  const resolved = resolveJobRef(byId === undefined ? yield* loadJobs(ctx.namespace) : [byId], id)
  if (Either.isLeft(resolved)) return jobCrash(resolved.left)
  if (resolved.right === undefined) return jobNotFound()
  yield* deleteJob(ctx.namespace, pyStr(resolved.right["id"]))
  return jsonResponse({ ok: true })
}
