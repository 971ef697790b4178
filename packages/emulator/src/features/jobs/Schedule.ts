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
import { pyIsSpace, pyStrip } from "../../python/index.js"

export type ParsedSchedule =
  | { readonly kind: "interval"; readonly minutes: number; readonly display: string }
  | { readonly kind: "cron"; readonly expr: string; readonly display: string }
  | { readonly kind: "once"; readonly run_at: string; readonly display: string }

const DURATION = /^(\d+)\s*(m|min|mins|minute|minutes|h|hr|hrs|hour|hours|d|day|days)$/
const MULTIPLIER: Record<string, number> = { m: 1, h: 60, d: 1440 }

/** `parse_duration`: minutes. */
export const parseDuration = (text: string): Either.Either<number, string> => {
  const s = pyStrip(text).toLowerCase()
  const m = DURATION.exec(s)
  if (m === null) return Either.left(`Invalid duration: '${s}'. Use format like '30m', '2h', or '1d'`)
  return Either.right(Number(m[1]) * (MULTIPLIER[(m[2] as string)[0] as string] ?? 1))
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
    return Either.map(parseDuration(pyStrip(schedule.slice(6))), (minutes) => ({
      kind: "interval" as const,
      minutes,
      display: `every ${minutes}m`
    }))
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
  const duration = parseDuration(schedule)
  if (Either.isRight(duration)) {
    const at = fromEpochSeconds(nowSeconds + duration.right * 60)
    return Either.right({ kind: "once", run_at: isoformat(at), display: `once in ${schedule}` })
  }
  return Either.left(
    `Invalid schedule '${schedule}'. Use:\n` +
      `  - Duration: '30m', '2h', '1d' (one-shot)\n` +
      `  - Interval: 'every 30m', 'every 2h' (recurring)\n` +
      `  - Cron: '0 9 * * *' (cron expression)\n` +
      `  - Timestamp: '2026-02-03T14:00:00' (one-shot at time)`
  )
}
