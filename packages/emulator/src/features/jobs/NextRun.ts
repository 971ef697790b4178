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
import { noAttribute, PyFloat, PyInt, pyTruthy, pyTypeName } from "../../python/index.js"

export const ONESHOT_GRACE_SECONDS = 120

const parseAware = (text: unknown): ZonedTime | undefined => {
  if (typeof text !== "string") return undefined
  const t = fromIsoformat(text)
  return Either.isLeft(t) ? undefined : assumeConfiguredZone(t.right)
}

const DAY_MICROS = 86_400_000_000
const C_INT_MAX = 2 ** 31 - 1
const MAX_DELTA_DAYS = 999_999_999
const C_INT_OVERFLOW = "Python int too large to convert to C int"
/**
 * datetime.min and the instant after datetime.max (years 1 and 10000) as epoch microseconds of the
 * wall clock; datetime.max itself (…799_999_999) is no double and would round up to year 10000.
 */
const FIRST_DATETIME_MICROS = -62_135_596_800_000_000
const PAST_LAST_DATETIME_MICROS = 253_402_300_800_000_000

/**
 * `timedelta(minutes=m)` in microseconds, or the exception's text: a bool is an int, other
 * non-numbers are a TypeError naming their type, and the day count must fit a C int, then
 * ±999999999 (OverflowError). Adding it to the base can still leave datetime's years 1–9999.
 */
const minutesDelta = (minutes: unknown): Either.Either<number, string> => {
  // a wrapped int is one past 2^53 minutes: its day count is far past a C int
  if (minutes instanceof PyInt) return Either.left(C_INT_OVERFLOW)
  const value = typeof minutes === "boolean" ? Number(minutes) : minutes instanceof PyFloat ? minutes.value : minutes
  if (typeof value !== "number") return Either.left(`unsupported type for timedelta minutes component: ${pyTypeName(minutes)}`)
  if (Number.isNaN(value)) return Either.left("cannot convert float NaN to integer")
  if (!Number.isFinite(value)) return Either.left("cannot convert float infinity to integer")
  const micros = value * 60e6
  const days = Math.floor(micros / DAY_MICROS)
  if (days > C_INT_MAX || days < -C_INT_MAX - 1) return Either.left(C_INT_OVERFLOW)
  if (Math.abs(days) > MAX_DELTA_DAYS) return Either.left(`days=${days}; must have magnitude <= ${MAX_DELTA_DAYS}`)
  return Either.right(Math.round(micros))
}

/** `base + timedelta(minutes=m)`, or the exception's text (timedelta's, or datetime's year range). */
export const addMinutes = (base: ZonedTime, minutes: unknown): Either.Either<ZonedTime, string> =>
  Either.flatMap(minutesDelta(minutes), (delta) => {
    const next = { micros: base.micros + delta, offsetSeconds: base.offsetSeconds }
    const localMicros = next.micros + (next.offsetSeconds ?? 0) * 1e6
    if (localMicros < FIRST_DATETIME_MICROS || localMicros >= PAST_LAST_DATETIME_MICROS) return Either.left("date value out of range")
    return Either.right(next)
  })

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
      return Either.map(addMinutes(last ?? now, minutes), isoformat)
    }
    case "cron": {
      const expr = s["expr"]
      if (!pyTruthy(expr)) return Either.right(null)
      // croniter lower-cases the expression first: anything but a string fails there
      if (typeof expr !== "string") return Either.left(noAttribute(expr, "lower"))
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
