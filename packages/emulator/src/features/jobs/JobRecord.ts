/**
 * cron/jobs.py's job records (0.19.0): how a job is created (the stored shape, key order included),
 * how a stored job is read back (`_normalize_job_record`), and how updates merge (`update_job`: a
 * shallow merge of whatever whitelisted fields the client sent, the schedule re-parsed when it is a
 * string, the next run recomputed). Pause, resume and trigger are updates; trigger ("run now") only
 * sets next_run_at to now — the scheduler's tick runs the job. Left is the text of the exception
 * upstream's handler turns into a 500.
 */
import { Either } from "effect"
import { AGENT_MODEL, AGENT_PROVIDER } from "../../agent/AgentIdentity.js"
import { fromEpochSeconds, isoformat } from "./IsoTime.js"
import type { Job } from "./JobStore.js"
import { lifecycleCommandError } from "./LifecycleGuard.js"
import { computeNextRun, ONESHOT_GRACE_SECONDS } from "./NextRun.js"
import { parseSchedule } from "./Schedule.js"
import { isDict, noAttribute, notIterable, pyPrefix, pyStr, pyStrip, pyTruthy } from "../../python/index.js"

export const nowIso = (nowSeconds: number): string => isoformat(fromEpochSeconds(nowSeconds))

/** `_normalize_skill_list(skill, skills)`: unique, stripped, non-empty names in order. */
export const normalizeSkillList = (skill: unknown, skills: unknown): Either.Either<Array<string>, string> => {
  let raw: Array<unknown>
  if (skills === null || skills === undefined) raw = pyTruthy(skill) ? [skill] : []
  else if (typeof skills === "string") raw = [skills]
  else if (Array.isArray(skills)) raw = skills
  else if (isDict(skills)) raw = Object.keys(skills)
  else return Either.left(notIterable(skills))
  const out: Array<string> = []
  for (const item of raw) {
    const text = pyStrip(pyTruthy(item) ? pyStr(item) : "")
    if (text !== "" && !out.includes(text)) out.push(text)
  }
  return Either.right(out)
}

/** `_apply_skill_fields`: canonical `skills` and legacy `skill` aligned (keys keep their places). */
export const applySkillFields = (job: Job): Either.Either<Job, string> =>
  Either.map(normalizeSkillList(job["skill"], job["skills"]), (skills) => {
    const out: Job = { ...job }
    out["skills"] = skills
    out["skill"] = skills[0] ?? null
    return out
  })

const coerceText = (v: unknown, fallback = ""): string => (v === null || v === undefined ? fallback : pyStr(v))

const scheduleDisplay = (job: Job): string => {
  const display = pyStrip(coerceText(job["schedule_display"]))
  if (display !== "") return display
  const schedule = job["schedule"]
  if (isDict(schedule)) {
    for (const key of ["display", "value", "expr", "run_at"]) {
      const text = pyStrip(coerceText(schedule[key]))
      if (text !== "") return text
    }
  } else if (schedule !== null && schedule !== undefined) return pyStr(schedule)
  return "?"
}

/** `_normalize_job_record`: what every read shows. */
export const normalizeJob = (job: Job): Either.Either<Job, string> =>
  Either.map(applySkillFields(job), (out) => {
    const id = coerceText(out["id"], "unknown")
    const prompt = coerceText(out["prompt"])
    out["id"] = id
    out["prompt"] = prompt
    let name = pyStrip(coerceText(out["name"]))
    if (name === "") {
      const skills = out["skills"] as Array<string>
      const label = prompt || skills[0] || pyStrip(coerceText(out["script"])) || id || "cron job"
      name = pyStrip(pyPrefix(label, 50)) || "cron job"
    }
    out["name"] = name
    out["schedule_display"] = scheduleDisplay(out)
    let state = pyStrip(coerceText(out["state"]))
    if (state === "") state = ("enabled" in out ? pyTruthy(out["enabled"]) : true) ? "scheduled" : "paused"
    out["state"] = state
    return out
  })

export interface NewJob {
  readonly id: string
  readonly prompt: unknown
  readonly schedule: string
  /** Never empty: the route answers "Name is required" first (upstream's label fallback never runs). */
  readonly name: string
  readonly deliver: unknown
  readonly origin: Record<string, string>
  readonly skills: unknown
  readonly repeat: unknown
}

/** `create_job` for what the API passes it. */
export const createJob = (input: NewJob, nowSeconds: number): Either.Either<Job, string> =>
  Either.gen(() => newJobRecord(input, nowSeconds))

function* newJobRecord(input: NewJob, nowSeconds: number) {
  const schedule = yield* parseSchedule(input.schedule, nowSeconds)
  let repeat = input.repeat
  if (repeat === null || repeat === undefined) repeat = schedule.kind === "once" ? 1 : null
  // upstream's `deliver or ("origin" if origin else "local")`, only for the null a body can hold: the
  // route passes "local" for a missing key, and API jobs always have an origin
  const deliver = input.deliver === null ? "origin" : input.deliver
  const skills = yield* normalizeSkillList(null, input.skills)
  const prompt = coerceText(input.prompt)
  const blocked = lifecycleCommandError(prompt)
  if (blocked !== undefined) return yield* Either.left(blocked)
  const next = yield* computeNextRun(schedule, nowSeconds)
  if (schedule.kind === "once" && next === null) {
    return yield* Either.left(
      `Requested one-shot time ${schedule.run_at} is more than ${ONESHOT_GRACE_SECONDS}s in the past and cannot be scheduled.`
    )
  }
  const job: Job = {
    id: input.id,
    name: input.name,
    prompt,
    skills,
    skill: skills[0] ?? null,
    model: null,
    provider: null,
    provider_snapshot: AGENT_PROVIDER,
    model_snapshot: AGENT_MODEL,
    base_url: null,
    script: null,
    no_agent: false,
    context_from: null,
    schedule,
    schedule_display: schedule.display,
    repeat: { times: repeat, completed: 0 },
    enabled: true,
    state: "scheduled",
    paused_at: null,
    paused_reason: null,
    created_at: nowIso(nowSeconds),
    next_run_at: next,
    last_run_at: null,
    last_status: null,
    last_error: null,
    last_delivery_error: null,
    deliver,
    origin: input.origin,
    enabled_toolsets: null,
    workdir: null
  }
  return job
}

export type Updated = { readonly jobs: Array<Job>; readonly job: Job | undefined }

/** `update_job`: Right with the new list and the normalized job (undefined when no job has the id). */
export const updateJob = (jobs: ReadonlyArray<Job>, id: string, updates: Job, nowSeconds: number): Either.Either<Updated, string> =>
  Either.gen(() => mergeUpdates(jobs, id, updates, nowSeconds))

function* mergeUpdates(jobs: ReadonlyArray<Job>, id: string, updates: Job, nowSeconds: number) {
  const i = jobs.findIndex((j) => j["id"] === id)
  if (i < 0) return { jobs: [...jobs], job: undefined }
  const updated = yield* applySkillFields({ ...(jobs[i] as Job), ...updates })
  if ("schedule" in updates) {
    let schedule = updated["schedule"]
    if (typeof schedule === "string") {
      schedule = yield* parseSchedule(schedule, nowSeconds)
      updated["schedule"] = schedule
    }
    if (!isDict(schedule)) return yield* Either.left(noAttribute(schedule, "get"))
    updated["schedule_display"] = "display" in schedule ? schedule["display"] : updated["schedule_display"]
    if (updated["state"] !== "paused") {
      const next = yield* computeNextRun(schedule, nowSeconds)
      if (next === null && schedule["kind"] === "once") {
        const runAt = pyTruthy(schedule["run_at"]) ? pyStr(schedule["run_at"]) : pyStr(schedule)
        return yield* Either.left(`Requested one-shot time ${runAt} is more than ${ONESHOT_GRACE_SECONDS}s in the past and cannot be scheduled.`)
      }
      updated["next_run_at"] = next
    }
  }
  const enabled = "enabled" in updated ? pyTruthy(updated["enabled"]) : true
  if (enabled && updated["state"] !== "paused" && !pyTruthy(updated["next_run_at"])) {
    const schedule = updated["schedule"]
    const next = yield* computeNextRun(schedule, nowSeconds)
    if (next === null && isDict(schedule) && schedule["kind"] === "once") {
      const runAt = "run_at" in schedule ? pyStr(schedule["run_at"]) : "unknown"
      return yield* Either.left(`Requested one-shot time ${runAt} is in the past (grace window: ${ONESHOT_GRACE_SECONDS}s) and cannot be scheduled.`)
    }
    updated["next_run_at"] = next
  }
  const out = [...jobs]
  out[i] = updated
  return { jobs: out, job: yield* normalizeJob(updated) }
}

/** `resolve_job_ref`: an exact id first, else a unique case-insensitive name. */
export const resolveJobRef = (jobs: ReadonlyArray<Job>, ref: string): Either.Either<Job | undefined, string> => {
  if (ref === "") return Either.right(undefined)
  const byId = jobs.find((j) => j["id"] === ref)
  if (byId !== undefined) return normalizeJob(byId)
  const lower = ref.toLowerCase()
  const named = jobs.filter((j) => (pyTruthy(j["name"]) ? pyStr(j["name"]) : "").toLowerCase() === lower)
  if (named.length === 0) return Either.right(undefined)
  if (named.length > 1) {
    return Either.left(
      `Job name '${ref}' is ambiguous — matches ${named.length} jobs: ${named.map((j) => pyStr(j["id"])).join(", ")}. Use the job ID instead.`
    )
  }
  return normalizeJob(named[0] as Job)
}

const byRef = (jobs: ReadonlyArray<Job>, ref: string, nowSeconds: number, updates: (job: Job) => Either.Either<Job, string>) =>
  Either.gen(() => updateByRef(jobs, ref, nowSeconds, updates))

function* updateByRef(jobs: ReadonlyArray<Job>, ref: string, nowSeconds: number, updates: (job: Job) => Either.Either<Job, string>) {
  const job = yield* resolveJobRef(jobs, ref)
  if (job === undefined) return { jobs: [...jobs], job: undefined } satisfies Updated
  return yield* updateJob(jobs, pyStr(job["id"]), yield* updates(job), nowSeconds)
}

export const pauseJob = (jobs: ReadonlyArray<Job>, ref: string, nowSeconds: number) =>
  byRef(jobs, ref, nowSeconds, () =>
    Either.right({ enabled: false, state: "paused", paused_at: nowIso(nowSeconds), paused_reason: null }))

export const resumeJob = (jobs: ReadonlyArray<Job>, ref: string, nowSeconds: number) =>
  byRef(jobs, ref, nowSeconds, (job) => Either.gen(() => resumeUpdates(job, nowSeconds)))

function* resumeUpdates(job: Job, nowSeconds: number) {
  const schedule = job["schedule"]
  const next = yield* computeNextRun(schedule, nowSeconds)
  if (next === null && isDict(schedule) && schedule["kind"] === "once") {
    const runAt = "run_at" in schedule ? pyStr(schedule["run_at"]) : "unknown"
    return yield* Either.left(`Cannot resume: one-shot time ${runAt} is in the past (grace window: ${ONESHOT_GRACE_SECONDS}s) and will never fire.`)
  }
  return { enabled: true, state: "scheduled", paused_at: null, paused_reason: null, next_run_at: next } as Job
}

export const triggerJob = (jobs: ReadonlyArray<Job>, ref: string, nowSeconds: number) =>
  byRef(jobs, ref, nowSeconds, () =>
    Either.right({ enabled: true, state: "scheduled", paused_at: null, paused_reason: null, next_run_at: nowIso(nowSeconds) }))

