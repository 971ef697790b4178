/**
 * POST /api/jobs (0.19.0 `_handle_create_job`): checks in upstream's order — name (stripped),
 * its length (≤ 200), schedule, prompt length (≤ 5000), the prompt scan, repeat (an int ≥ 1; a
 * bool counts as an int) — then create_job. The answer is 200 `{"job": ...}` with the stored job.
 * Anything that raises (a body that is not an object, non-string name/schedule, a schedule that
 * does not parse, a one-shot in the past) is a 500 with the exception's text, and nothing is saved.
 */
import { Effect, Either } from "effect"
import { plainErrorResponse } from "../../http/Envelopes.js"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import { createJob } from "./JobRecord.js"
import { readJobBody } from "./JobRequestBody.js"
import { loadJobs, saveJobs } from "./JobStore.js"
import { scanCronPrompt } from "./PromptScan.js"
import { Ids } from "../../services/Ids.js"
import { jobCrash, originOf } from "./JobRouteSupport.js"
import { isDict, noAttribute, noLen, notAString, pyIntValue, pyLen, pyStrip, pyTruthy } from "../../python/index.js"

const MAX_NAME = 200
const MAX_PROMPT = 5000

/** `(body.get(key) or "").strip()`. */
const strippedField = (v: unknown): Either.Either<string, string> => {
  if (!pyTruthy(v)) return Either.right("")
  return typeof v === "string" ? Either.right(pyStrip(v)) : Either.left(noAttribute(v, "strip"))
}

export const createJobRoute: Handler = (ctx) =>
  Effect.gen(() => checkAndCreateJob(ctx))

function* checkAndCreateJob(ctx: RouteContext) {
  const read = readJobBody(yield* ctx.readBody)
  if (Either.isLeft(read)) return jobCrash(read.left)
  const body = read.right
  if (!isDict(body)) return jobCrash(noAttribute(body, "get"))
  const name = strippedField(body["name"])
  if (Either.isLeft(name)) return jobCrash(name.left)
  const schedule = strippedField(body["schedule"])
  if (Either.isLeft(schedule)) return jobCrash(schedule.left)
  const prompt = "prompt" in body ? body["prompt"] : ""
  const repeat = body["repeat"] ?? null
  if (name.right === "") return plainErrorResponse(400, "Name is required")
  if ([...name.right].length > MAX_NAME) return plainErrorResponse(400, `Name must be ≤ ${MAX_NAME} characters`)
  if (schedule.right === "") return plainErrorResponse(400, "Schedule is required")
  const promptLength = pyLen(prompt)
  if (promptLength === undefined) return jobCrash(noLen(prompt))
  if (promptLength > MAX_PROMPT) return plainErrorResponse(400, `Prompt must be ≤ ${MAX_PROMPT} characters`)
  if (pyTruthy(prompt)) {
    if (typeof prompt !== "string") return jobCrash(notAString(prompt))
    const blocked = scanCronPrompt(prompt)
    if (blocked !== "") return plainErrorResponse(400, blocked)
  }
  if (repeat !== null) {
    const n = pyIntValue(repeat)
    if (n === undefined || n < 1n) return plainErrorResponse(400, "Repeat must be a positive integer")
  }
  const ids = yield* Ids
  const created = createJob(
    {
      id: ids.hex(12),
      prompt,
      schedule: schedule.right,
      name: name.right,
      deliver: "deliver" in body ? body["deliver"] : "local",
      origin: originOf(ctx),
      skills: pyTruthy(body["skills"]) ? body["skills"] : null,
      repeat
    },
    ctx.now()
  )
  if (Either.isLeft(created)) return jobCrash(created.left)
  const jobs = yield* loadJobs(ctx.namespace)
  yield* saveJobs(ctx.namespace, [...jobs, created.right])
  return jsonResponse({ job: created.right })
}
