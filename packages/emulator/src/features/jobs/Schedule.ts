/**
 * cron/jobs.py's schedule language (0.19.0 source): "every <duration>" (interval), five or more
 * fields of digits and * - , / (a cron expression, validated by croniter), an ISO timestamp or
 * date (one-shot at that time; naive means the configured zone), or a bare duration (one-shot that
 * far from now). The parsed form is what the job JSON stores under `schedule`. Left is the
 * ValueError text that the jobs API answers with a 500.
 */
import { Either } from "effect"
import { parseCron } from "./CronExpression.js"
import { assumeConfiguredZone, fromEpochSeconds, fromIsoformat, isoformat, strftime } from "./IsoTime.js"
import { addMinutes } from "./NextRun.js"
import { INT_MAX_STR_DIGITS, pyDecimalDigitsValue, PyInt, pyIntDigitLimitMessage, pyIntRepr, pyIsSpace, pyStrip, PyValueError, toHandlerValue } from "../../python/index.js"

export type ParsedSchedule =
  | { readonly kind: "interval"; readonly minutes: number | PyInt; readonly display: string }
  | { readonly kind: "cron"; readonly expr: string; readonly display: string }
  | { readonly kind: "once"; readonly run_at: string; readonly display: string }

// `\d` and `\s` of a Python str pattern: any Unicode decimal digit, any str.isspace() character
// (checked apart: JS's \s is another set). The lazy gap is the shortest, so all-space iff Python's.
const DURATION = /^(\p{Nd}+)(.*?)(m|min|mins|minute|minutes|h|hr|hrs|hour|hours|d|day|days)$/su
const MULTIPLIER: Record<string, bigint> = { m: 1n, h: 60n, d: 1440n }

/** `parse_duration`: minutes, a Python int (int() of the digits, so at most 4300 of them). */
export const parseDuration = (text: string): Either.Either<bigint, string> => {
  const s = pyStrip(text).toLowerCase()
  const m = DURATION.exec(s)
  if (m === null || ![...(m[2] as string)].every((ch) => pyIsSpace(ch.codePointAt(0) ?? 0))) {
    return Either.left(`Invalid duration: '${s}'. Use format like '30m', '2h', or '1d'`)
  }
  const digits = [...(m[1] as string)].length
  if (digits > INT_MAX_STR_DIGITS) return Either.left(pyIntDigitLimitMessage(digits))
  return Either.right(pyDecimalDigitsValue(m[1] as string) * (MULTIPLIER[(m[3] as string)[0] as string] ?? 1n))
}

/** A Python int as the emulator's handler values hold it (toHandlerValue: a JS number while it is a safe integer). */
const handlerInt = (v: bigint): number | PyInt => toHandlerValue(new PyInt(v)) as number | PyInt

/** `str(int)`, whose 4300-digit limit is a ValueError the jobs API answers with. */
const intText = (v: bigint): Either.Either<string, string> => {
  try {
    return Either.right(pyIntRepr(v))
  } catch (e) {
    if (e instanceof PyValueError) return Either.left(e.message)
    throw e
  }
}

/** Python's `str.split()` with no argument. */
const pySplit = (s: string): Array<string> => {
  const out: Array<string> = []
  let cur = ""
  for (const ch of s) {
    if (pyIsSpace(ch.codePointAt(0) ?? 0)) {
      if (cur !== "") out.push(cur)
      cur = ""
    } else cur += ch
  }
  if (cur !== "") out.push(cur)
  return out
}

const CRON_FIELD = /^[\d*\-,/]+$/

export const parseSchedule = (raw: string, nowSeconds: number): Either.Either<ParsedSchedule, string> => {
  const schedule = pyStrip(raw)
  if (schedule.toLowerCase().startsWith("every ")) {
    return Either.flatMap(parseDuration(pyStrip(schedule.slice(6))), (minutes) =>
      Either.map(intText(minutes), (text) => ({
        kind: "interval" as const,
        minutes: handlerInt(minutes),
        display: `every ${text}m`
      }))
    )
  }
  const parts = pySplit(schedule)
  if (parts.length >= 5 && parts.slice(0, 5).every((p) => CRON_FIELD.test(p))) {
    const cron = parseCron(schedule)
    if (Either.isLeft(cron)) return Either.left(`Invalid cron expression '${schedule}': ${cron.left}`)
    return Either.right({ kind: "cron", expr: schedule, display: schedule })
  }
  if (schedule.includes("T") || /^\d{4}-\d{2}-\d{2}/.test(schedule)) {
    const parsed = fromIsoformat(schedule.replace(/Z/g, "+00:00"))
    if (Either.isLeft(parsed)) return Either.left(`Invalid timestamp '${schedule}': ${parsed.left}`)
    const at = assumeConfiguredZone(parsed.right)
    return Either.right({ kind: "once", run_at: isoformat(at), display: `once at ${strftime(at, "%Y-%m-%d %H:%M")}` })
  }
  // only parse_duration's ValueError falls through to "Invalid schedule": timedelta's and datetime's
  // OverflowError (a day count past a C int or 999999999, a year past 9999) is the answer
  const duration = parseDuration(schedule)
  if (Either.isRight(duration)) {
    return Either.map(addMinutes(fromEpochSeconds(nowSeconds), handlerInt(duration.right)), (at) => ({
      kind: "once" as const,
      run_at: isoformat(at),
      display: `once in ${schedule}`
    }))
  }
  return Either.left(
    `Invalid schedule '${schedule}'. Use:\n` +
      `  - Duration: '30m', '2h', '1d' (one-shot)\n` +
      `  - Interval: 'every 30m', 'every 2h' (recurring)\n` +
      `  - Cron: '0 9 * * *' (cron expression)\n` +
      `  - Timestamp: '2026-02-03T14:00:00' (one-shot at time)`
  )
}
