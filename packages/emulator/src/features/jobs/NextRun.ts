/**
 * `compute_next_run`: when a schedule fires next, as an ISO string, or null when it never will.
 * A one-shot keeps its run_at while that is no more than 120 s past (and it has not run yet); an
 * interval runs every N minutes from its last run (first: from now); a cron expression fires at
 * its next match after the last run (first: after now). Left is an exception text (croniter's
 * "failed to find next date" for an expression that never fires).
 */
import { Either } from "effect"
import { parseCron, nextFiring } from "./CronExpression.js"
import { assumeConfiguredZone, fromEpochSeconds, fromIsoformat, isoformat, type ZonedTime } from "./IsoTime.js"

export const ONESHOT_GRACE_SECONDS = 120

const parseAware = (text: unknown): ZonedTime | undefined => {
  if (typeof text !== "string") return undefined
  const t = fromIsoformat(text)
  return Either.isLeft(t) ? undefined : assumeConfiguredZone(t.right)
}

export const computeNextRun = (
  schedule: unknown,
  nowSeconds: number,
  lastRunAt?: string | null
): Either.Either<string | null, string> => {
  if (typeof schedule !== "object" || schedule === null || Array.isArray(schedule)) return Either.right(null)
  const s = schedule as Record<string, unknown>
  const now = fromEpochSeconds(nowSeconds)
  const last = lastRunAt === null || lastRunAt === undefined || lastRunAt === "" ? undefined : parseAware(lastRunAt)
  switch (s["kind"]) {
    case "once": {
      if (lastRunAt !== null && lastRunAt !== undefined && lastRunAt !== "") return Either.right(null)
      const runAt = s["run_at"]
      const at = parseAware(runAt)
      if (at === undefined || typeof runAt !== "string") return Either.right(null)
      return Either.right(at.micros >= now.micros - ONESHOT_GRACE_SECONDS * 1e6 ? runAt : null)
    }
    case "interval": {
      const minutes = s["minutes"]
      if (minutes === null || minutes === undefined) return Either.right(null)
      if (typeof minutes !== "number") return Either.left(`unsupported type for timedelta minutes component: ${typeof minutes === "string" ? "str" : "object"}`)
      const base = last ?? now
      return Either.right(isoformat({ micros: base.micros + Math.round(minutes * 60e6), offsetSeconds: base.offsetSeconds }))
    }
    case "cron": {
      const expr = s["expr"]
      if (typeof expr !== "string" || expr === "") return Either.right(null)
      const cron = parseCron(expr)
      if (Either.isLeft(cron)) return Either.left(cron.left)
      const base = last ?? now
      const next = nextFiring(cron.right, base.micros + (base.offsetSeconds ?? 0) * 1e6)
      if (next === undefined) return Either.left("failed to find next date")
      return Either.right(isoformat({ micros: next * 1e6 - (base.offsetSeconds ?? 0) * 1e6, offsetSeconds: base.offsetSeconds ?? 0 }))
    }
    default:
      return Either.right(null)
  }
}

/** The grace a due recurring job may be late by and still run (half its period, 120 s to 2 h). */
export const graceSeconds = (schedule: Record<string, unknown>, nowSeconds: number): number => {
  const clamp = (period: number) => Math.max(120, Math.min(Math.floor(period / 2), 7200))
  if (schedule["kind"] === "interval" && typeof schedule["minutes"] === "number") return clamp(schedule["minutes"] * 60)
  if (schedule["kind"] === "cron" && typeof schedule["expr"] === "string") {
    const cron = parseCron(schedule["expr"])
    if (Either.isRight(cron)) {
      const first = nextFiring(cron.right, nowSeconds * 1e6)
      const second = first === undefined ? undefined : nextFiring(cron.right, first * 1e6)
      if (first !== undefined && second !== undefined) return clamp(second - first)
    }
  }
  return 120
}
