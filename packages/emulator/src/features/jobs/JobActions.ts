/**
 * POST /api/jobs/{job_id}/pause, …/resume and …/run. "Run" is upstream's trigger: it answers at
 * once with the job due now; the scheduler's next tick (within a minute on the real gateway; see
 * jobs/JobTicker.ts) plays it. Run also refuses while the gateway drains. The id may name a job by
 * its name too (resolve_job_ref), as long as that name looks like a job id.
 */
import { Effect, Either } from "effect"
import { errorResponse } from "../../http/Envelopes.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import { pauseJob, resumeJob, triggerJob } from "./JobRecord.js"
import { applyJobOperation, checkJobId } from "./JobRouteSupport.js"

const action = (op: typeof pauseJob, honoursDrain: boolean): Handler => (ctx) =>
  Effect.gen(() => applyAction(ctx, op, honoursDrain))

function* applyAction(ctx: RouteContext, op: typeof pauseJob, honoursDrain: boolean) {
  if (honoursDrain && ctx.gateway.draining) {
    return errorResponse(503, "Gateway is draining existing work; retry shortly.", {
      code: "gateway_draining",
      headers: [["Retry-After", "1"]]
    })
  }
  const checked = checkJobId(ctx)
  if (Either.isLeft(checked)) return checked.left
  const id = checked.right
  return yield* applyJobOperation(ctx, (jobs) => op(jobs, id, ctx.now()))
}

export const pauseJobRoute = action(pauseJob, false)
export const resumeJobRoute = action(resumeJob, false)
export const runJobRoute = action(triggerJob, true)
