/**
 * The cron scheduler's tick, as the emulated gateway runs it: every job that is enabled, not
 * paused and due (next_run_at ≤ the namespace clock) fires once. A recurring job later than its
 * grace (half its period, 2 min to 2 h) skips the runs it missed — its next time is fast-forwarded
 * — but still runs once now, as upstream's stale-run guard does. A firing plays one Script turn
 * as the agent, which writes a session `cron_<job id>_<YYYYmmdd_HHMMSS>` (source "cron", titled "<name> · <Mon DD HH:MM>",
 * ended "cron_complete"); then the job is marked run (last_run_at/status/error, repeat count,
 * next_run_at, fire_claim, a one-shot's run_claim) — removed when its repeat count is reached — and an execution record
 * is kept for `latest_execution`.
 *
 * The agent's prompt is Hermes' cron preamble followed by the job prompt; the emulator sends a
 * stand-in preamble rather than Hermes' text, so the recorded user message differs from upstream's.
 */
import { Duration, Effect, Either } from "effect"
import { playAgentTurn } from "../../agent/AgentLoop.js"
import type { AgentTurnResult } from "../../agent/AgentTurn.js"
import { Gateways } from "../../services/GatewayProcess.js"
import { EmuClock } from "../../services/Clock.js"
import { Ids } from "../../services/Ids.js"
import { nodeCrypto } from "../../services/NodeCrypto.js"
import { sessionTranscript } from "../sessions/SessionTranscript.js"
import { endSession, writeTitle } from "../sessions/SessionStore.js"
import { fromEpochSeconds, fromIsoformat, assumeConfiguredZone, strftime } from "./IsoTime.js"
import { nowIso } from "./JobRecord.js"
import { deleteJobAt, type Job, type JobEntry, jobNamespaces, loadJobEntry, loadMaybeDueJobs, saveExecution, saveJobAt } from "./JobStore.js"
import { computeNextRun, graceSeconds } from "./NextRun.js"
import { countPlusOne, countValue } from "./RepeatCount.js"
import { isDict, pyStr, pyStrip, pyTruthy } from "../../python/index.js"

export const CRON_PREAMBLE_STANDIN = "[hermetic: Hermes' cron job preamble]"

/** The scheduler's cadence on the real gateway (TICKER_INTERVAL_SECONDS). */
export const TICK_SECONDS = 60

const dueAt = (job: Job): number | undefined => {
  const next = job["next_run_at"]
  if (typeof next !== "string") return undefined
  const t = fromIsoformat(next)
  return Either.isLeft(t) ? undefined : assumeConfiguredZone(t.right).micros / 1e6
}

/** `mark_job_run` on one job: the job after recording the outcome, or null when its repeat count is reached. */
const markRun = (stored: Job, ok: boolean, error: string | null, now: number): Job | null => {
  const job: Job = { ...stored }
  const at = nowIso(now)
  job["last_run_at"] = at
  job["last_status"] = ok ? "ok" : "error"
  job["last_error"] = ok ? null : error
  job["last_delivery_error"] = null
  job["fire_claim"] = null
  // the one-shot's running claim (stamped when the tick found it due) ends with the run
  if (job["run_claim"] !== null && job["run_claim"] !== undefined) job["run_claim"] = null
  const repeat = job["repeat"]
  const schedule = isDict(job["schedule"]) ? job["schedule"] : {}
  if (isDict(repeat) && pyTruthy(repeat)) {
    const times = countValue(repeat["times"]) ?? null
    let completed: unknown = "completed" in repeat ? repeat["completed"] : 0
    const preclaimed = schedule["kind"] === "once" && times !== null && times > 0 && (countValue(completed) ?? 0) > 0
    if (!preclaimed) completed = countPlusOne(completed)
    job["repeat"] = { ...repeat, completed }
    if (times !== null && times > 0 && (countValue(completed) ?? 0) >= times) return null
  }
  const next = computeNextRun(schedule, now, at)
  job["next_run_at"] = Either.isRight(next) ? next.right : null
  if (job["next_run_at"] === null) {
    if (schedule["kind"] === "cron" || schedule["kind"] === "interval") job["state"] = "error"
    else {
      job["enabled"] = false
      job["state"] = "completed"
    }
  } else if (job["state"] !== "paused") job["state"] = "scheduled"
  return job
}

/**
 * One-shot jobs with a repeat limit claim their firing before it runs (at most `times` firings):
 * the job to store (null: removed, undefined: unchanged) and whether the firing proceeds.
 */
const claim = (job: Job): { readonly store: Job | null | undefined; readonly proceed: boolean } => {
  const schedule = isDict(job["schedule"]) ? job["schedule"] : {}
  const repeat = isDict(job["repeat"]) ? job["repeat"] : undefined
  const times = countValue(repeat?.["times"]) ?? null
  if (schedule["kind"] !== "once" || repeat === undefined || times === null || times <= 0) return { store: undefined, proceed: true }
  const completed = "completed" in repeat ? repeat["completed"] : 0
  if ((countValue(completed) ?? 0) >= times) return { store: null, proceed: false }
  return { store: { ...job, repeat: { ...repeat, completed: countPlusOne(completed) } }, proceed: true }
}

/** Stores what became of the first job with this id (the list lookup upstream's functions make). */
const storeOutcome = (ns: string, entry: JobEntry, job: Job | null | undefined) =>
  job === undefined ? Effect.void : job === null ? deleteJobAt(ns, entry.seq) : saveJobAt(ns, entry.seq, job)

const fire = (ns: string, job: Job) =>
  Effect.gen(() => fireJob(ns, job))

function* fireJob(ns: string, job: Job) {
  const clock = yield* EmuClock
  const ids = yield* Ids
  const id = pyStr(job["id"])
  const started = clock.now(ns)
  const startedIso = nowIso(started)
  const before = yield* loadJobEntry(ns, id)
  const claimed = before === undefined ? { store: undefined, proceed: true } : claim(before.job)
  if (before !== undefined) yield* storeOutcome(ns, before, claimed.store)
  if (!claimed.proceed) return
  const stamp = fromEpochSeconds(started)
  const sessionId = `cron_${id}_${strftime(stamp, "%Y%m%d_%H%M%S")}`
  // str(job["prompt"] or ""): an empty list or object an update stored is an empty prompt, not its repr
  const prompt = pyTruthy(job["prompt"]) ? pyStr(job["prompt"]) : ""
  const result = yield* playAgentTurn({
    namespace: ns,
    operation: "cron",
    sessionId,
    userMessage: `${CRON_PREAMBLE_STANDIN}\n\n${prompt}`,
    history: [],
    persist: sessionTranscript(ns, sessionId, () => clock.now(ns), "cron")
  })
  const finished = clock.now(ns)
  yield* writeTitle(ns, sessionId, `${pyStr(job["name"])} \u00b7 ${strftime(stamp, "%b %d %H:%M")}`)
  yield* endSession(ns, sessionId, "cron_complete", finished)
  const error = result.failed ? failedRunError(result) : null
  const after = yield* loadJobEntry(ns, id)
  if (after !== undefined) yield* storeOutcome(ns, after, markRun(after.job, !result.failed, error, finished))
  yield* saveExecution(ns, id, {
    id: ids.hex(32),
    job_id: id,
    source: "builtin",
    process_id: processId(),
    pid: process.pid,
    process_started_at: EMULATED_PROCESS_START,
    status: result.failed ? "failed" : "completed",
    claimed_at: startedIso,
    started_at: startedIso,
    finished_at: nowIso(finished),
    error
  })
}

/**
 * What a failed run records as its error: the scheduler raises RuntimeError with the turn's error
 * (or else its stripped final response, or a fixed text) and stores the exception as
 * "<type name>: <message>" (fixtures/0.19.0/jobs-a-cron-run-whose-model-call-fails-…).
 */
const failedRunError = (result: AgentTurnResult): string =>
  `RuntimeError: ${result.error || pyStrip(result.finalResponse) || "agent reported failure"}`

/** Identity of the emulated gateway process in execution records (fixed per emulator process). */
// made at the first execution record, not at load (services/NodeCrypto.ts says why)
let emulatedProcessId: string | undefined
const processId = () => (emulatedProcessId ??= nodeCrypto().randomBytes(16).toString("hex"))
const EMULATED_PROCESS_START = Math.floor(performance.timeOrigin / 1000) % 1_000_000

/** One tick of one namespace: fire what is due, fast-forward what is stale. */
export const tickNamespace = (ns: string) =>
  Effect.gen(() => tickOnce(ns))

function* tickOnce(ns: string) {
  const clock = yield* EmuClock
  const now = clock.now(ns)
  ;(yield* Gateways).get(ns).lastCronTickLoop = clock.loop(ns)
  // only the jobs the due index returns: a tick reads and rewrites no other job
  const due: Array<Job> = []
  for (const { seq, job } of yield* loadMaybeDueJobs(ns, now)) {
    const at = dueAt(job)
    const enabled = "enabled" in job ? pyTruthy(job["enabled"]) : true
    if (!enabled || job["state"] === "paused" || at === undefined || at > now) continue
    const schedule = isDict(job["schedule"]) ? job["schedule"] : {}
    const recurring = schedule["kind"] === "cron" || schedule["kind"] === "interval"
    // past its grace: the missed runs are skipped (next_run_at fast-forwarded, provisionally: the
    // run's mark re-anchors it) but the job still runs once now, as on the real 0.19.0
    // (fixtures/0.19.0/jobs-recurring-jobs-past-their-catch-up-grace-…: each fires once at the jump)
    if (recurring && now - at > graceSeconds(schedule, now)) {
      const next = computeNextRun(schedule, now)
      const forwarded = { ...job, next_run_at: Either.isRight(next) ? next.right : null }
      yield* saveJobAt(ns, seq, forwarded)
      due.push(forwarded)
      continue
    }
    if (schedule["kind"] === "once") {
      // upstream's due scan claims a one-shot for the length of its run before returning it, so
      // a completed one-shot shows `run_claim: null` before `fire_claim: null` (recorded:
      // fixtures/0.19.0/jobs-repeat-limits-…)
      const claimed = { ...job, run_claim: { at: nowIso(now), by: processId() } }
      yield* saveJobAt(ns, seq, claimed)
      due.push(claimed)
      continue
    }
    due.push(job)
  }
  for (const job of due) yield* fire(ns, job)
  return due.length
}

/**
 * The ticker's wait is 60 s of the gateway's loop (monotonic) clock: once loop time passed it — by
 * running, or by a jump — it ticks, then waits 60 s again. A set to the past moves the loop clock
 * back too, so no tick comes until loop time is back past the wait's end; on the wall-only clock a
 * jump ends no wait. (On the real gateway under libfaketime since the sem_clockwait shim; a move
 * shorter than the time left in the current wait lands wherever the real ticker is in its cycle.)
 */
export const tickIfDue = (ns: string) =>
  Effect.gen(() => tickWhenDue(ns))

function* tickWhenDue(ns: string) {
  const loop = (yield* EmuClock).loop(ns)
  const gw = (yield* Gateways).get(ns)
  return loop - gw.lastCronTickLoop >= TICK_SECONDS ? yield* tickNamespace(ns) : 0
}

/** Every namespace with jobs whose ticker's wait is over ticks. */
export const tickAllDue = Effect.flatMap(jobNamespaces, (namespaces) =>
  Effect.forEach(namespaces, tickIfDue, { discard: true }))

/** How often the emulator looks whether a namespace's ticker wait is over (real time). */
const TICKER_POLL = Duration.seconds(1)

/**
 * The emulator's scheduler: every namespace's ticker wait ends 60 s of its loop clock after its
 * last tick; the emulator looks every second of real time. `POST /__admin/cron/tick` ticks at once.
 */
export const jobTicker = Effect.forever(
  Effect.sleep(TICKER_POLL).pipe(Effect.zipRight(tickAllDue.pipe(Effect.catchAllCause(() => Effect.void))))
)
