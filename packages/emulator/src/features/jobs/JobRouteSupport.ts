/**
 * What the /api/jobs handlers share: their plain `{"error": ...}` envelope (a 500 carries the text
 * of the exception the handler's broad `except` caught), the 12-hex job id check, and the origin
 * a job created over HTTP remembers.
 */
import { Effect, Either } from "effect"
import { plainErrorResponse } from "../../http/Envelopes.js"
import type { EmuResponse } from "../../http/Exchange.js"
import type { RouteContext } from "../../http/Route.js"
import { type Job, loadJob, loadJobs, saveJob, saveJobs } from "./JobStore.js"
import type { Updated } from "./JobRecord.js"
import { jsonResponse } from "../../http/Exchange.js"
import { pyPrefix, pyStrip } from "../../python/index.js"

export const jobCrash = (message: string): EmuResponse => plainErrorResponse(500, message)
export const jobNotFound = (): EmuResponse => plainErrorResponse(404, "Job not found")

const JOB_ID = /^[a-f0-9]{12}$/

/** The path's job id when it is 12 lowercase hex digits, else the 400 that refuses it. */
export const checkJobId = (ctx: RouteContext): Either.Either<string, EmuResponse> => {
  const id = ctx.params["job_id"] ?? ""
  return JOB_ID.test(id) ? Either.right(id) : Either.left(plainErrorResponse(400, "Invalid job ID format"))
}

/** `_clean_log_value`: line breaks to spaces, stripped, truncated. */
const clean = (v: string | undefined, max: number): string => pyPrefix(pyStrip((v ?? "").replace(/[\r\n]/g, " ")), max)

/**
 * `_cron_origin_from_request`. The emulator serves loopback only, so the peer is 127.0.0.1 (the
 * in-process fetch handler has no socket and reports the same).
 */
export const originOf = (ctx: RouteContext): Record<string, string> => {
  const origin: Record<string, string> = { platform: "api_server", chat_id: "api", source_ip: "127.0.0.1", peer_ip: "127.0.0.1" }
  const forwarded = clean(ctx.req.headers["x-forwarded-for"], 200)
  if (forwarded !== "") origin["forwarded_for"] = forwarded
  const realIp = clean(ctx.req.headers["x-real-ip"], 200)
  if (realIp !== "") origin["real_ip"] = realIp
  const agent = clean(ctx.req.headers["user-agent"], 300)
  if (agent !== "") origin["user_agent"] = agent
  return origin
}

/** Runs a list operation: saves when it changed a job, answers `{"job": ...}`, 404 or the 500 text. */
export const applyJobOperation = (ctx: RouteContext, op: (jobs: ReadonlyArray<Job>) => Either.Either<Updated, string>) =>
  Effect.gen(() => applyToJobs(ctx, op))

function* applyToJobs(ctx: RouteContext, op: (jobs: ReadonlyArray<Job>) => Either.Either<Updated, string>) {
  // a job found by its id is the only one the operation touches: it runs on that job alone and
  // only that row is rewritten; a ref that is no job's id (it may be a name) takes the whole list
  const byId = yield* loadJob(ctx.namespace, ctx.params["job_id"] ?? "")
  const result = op(byId === undefined ? yield* loadJobs(ctx.namespace) : [byId])
  if (Either.isLeft(result)) return jobCrash(result.left)
  if (result.right.job === undefined) return jobNotFound()
  const stored = result.right.jobs[0]
  if (byId !== undefined && stored !== undefined) yield* saveJob(ctx.namespace, stored)
  else yield* saveJobs(ctx.namespace, result.right.jobs)
  return jsonResponse({ job: result.right.job })
}
