/**
 * PATCH /api/jobs/{job_id}: a partial merge of the whitelisted fields the body carries (name,
 * schedule, prompt, deliver, skills, skill, repeat, enabled) — values are stored as sent, the
 * schedule re-parsed when it is a string, the next run recomputed. Nothing whitelisted is a 400;
 * lengths and the prompt scan as on create; anything that raises is a 500 and changes nothing.
 */
import { Effect, Either } from "effect"
import { plainErrorResponse } from "../../http/Envelopes.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import type { Job } from "./JobStore.js"
import { updateJob } from "./JobRecord.js"
import { readJobBody } from "./JobRequestBody.js"
import { scanCronPrompt } from "./PromptScan.js"
import { applyJobOperation, checkJobId, jobCrash } from "./JobRouteSupport.js"
import { isDict, noAttribute, noLen, notAString, pyLen, pyTruthy } from "../../python/index.js"

const ALLOWED = new Set(["name", "schedule", "prompt", "deliver", "skills", "skill", "repeat", "enabled"])

export const updateJobRoute: Handler = (ctx) =>
  Effect.gen(() => checkAndUpdateJob(ctx))

function* checkAndUpdateJob(ctx: RouteContext) {
  const checked = checkJobId(ctx)
  if (Either.isLeft(checked)) return checked.left
  const id = checked.right
  const read = readJobBody(yield* ctx.readBody)
  if (Either.isLeft(read)) return jobCrash(read.left)
  const body = read.right
  if (!isDict(body)) return jobCrash(noAttribute(body, "items"))
  const updates: Job = {}
  for (const [k, v] of Object.entries(body)) if (ALLOWED.has(k)) updates[k] = v
  if (Object.keys(updates).length === 0) return plainErrorResponse(400, "No valid fields to update")
  if ("name" in updates) {
    const n = pyLen(updates["name"])
    if (n === undefined) return jobCrash(noLen(updates["name"]))
    if (n > 200) return plainErrorResponse(400, "Name must be ≤ 200 characters")
  }
  if ("prompt" in updates) {
    const n = pyLen(updates["prompt"])
    if (n === undefined) return jobCrash(noLen(updates["prompt"]))
    if (n > 5000) return plainErrorResponse(400, "Prompt must be ≤ 5000 characters")
  }
  const prompt = updates["prompt"]
  if (pyTruthy(prompt)) {
    if (typeof prompt !== "string") return jobCrash(notAString(prompt))
    const blocked = scanCronPrompt(prompt)
    if (blocked !== "") return plainErrorResponse(400, blocked)
  }
  return yield* applyJobOperation(ctx, (jobs) => updateJob(jobs, id, updates, ctx.now()))
}
