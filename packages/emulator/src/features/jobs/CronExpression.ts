/**
 * Cron expressions as croniter 6 (the version the 0.19.0 wheel pins) reads the ones Hermes lets
 * through: 5 fields (minute hour day month weekday), a 6th for seconds, a 7th for the year; items
 * `*`, `N`, `N-M` (a reversed range wraps around), each with an optional `/step`, comma-separated.
 * Weekday 7 is Sunday. When both day fields are restricted a day matching either one counts.
 * Errors carry croniter's messages; an expression that never fires parses but has no next time.
 */
import { Either } from "effect"

interface FieldSpec {
  readonly min: number
  readonly max: number
}

const WEEKDAY: FieldSpec = { min: 0, max: 7 } // 7 = Sunday

const FIELDS: ReadonlyArray<FieldSpec> = [
  { min: 0, max: 59 }, // minute
  { min: 0, max: 23 }, // hour
  { min: 1, max: 31 }, // day of month
  { min: 1, max: 12 }, // month
  WEEKDAY,
  { min: 0, max: 59 }, // second
  { min: 1970, max: 2099 } // year
]

export interface CronSchedule {
  readonly minutes: ReadonlySet<number>
  readonly hours: ReadonlySet<number>
  readonly days: ReadonlySet<number>
  readonly months: ReadonlySet<number>
  readonly weekdays: ReadonlySet<number>
  readonly seconds: ReadonlySet<number>
  readonly years: ReadonlySet<number> | undefined
  readonly dayRestricted: boolean
  readonly weekdayRestricted: boolean
}

type FieldError = "syntax" | "range" | "negative" | "zero-step"

const ITEM = /^(\*|\d+(?:-\d+)?)(?:\/(\d+))?$/

const expandField = (text: string, spec: FieldSpec): Either.Either<Set<number>, FieldError> => {
  if (text === "-") return Either.left("negative")
  const out = new Set<number>()
  for (const item of text.split(",")) {
    const m = ITEM.exec(item)
    if (m === null) return Either.left("syntax")
    const range = m[1] as string
    const step = m[2] === undefined ? 1 : Number(m[2])
    let from: number
    let to: number
    // weekday 7 only aliases Sunday: "*" and "N/step" run to Saturday
    const openEnd = spec === WEEKDAY ? 6 : spec.max
    if (range === "*") {
      from = spec.min
      to = openEnd
    } else if (range.includes("-")) {
      const [a, b] = range.split("-").map(Number) as [number, number]
      from = a
      to = b
    } else {
      from = Number(range)
      to = m[2] === undefined ? from : openEnd
    }
    if (from < spec.min || from > spec.max || to < spec.min || to > spec.max) return Either.left("range")
    if (step === 0) return Either.left("zero-step")
    if (from <= to) {
      for (let v = from; v <= to; v += step) out.add(v)
    } else {
      // a reversed range runs to the field's end and wraps round to its start
      const span = spec.max - spec.min + 1
      for (let i = 0; i <= to - from + span; i += step) out.add(spec.min + ((from - spec.min + i) % span))
    }
  }
  return Either.right(out)
}

/** `croniter(expr)`: Left is the message croniter raises with. */
export const parseCron = (expr: string): Either.Either<CronSchedule, string> => {
  const parts = expr.split(/\s+/).filter((p) => p !== "")
  if (parts.length < 5 || parts.length > 7) {
    return Either.left("Exactly 5, 6 or 7 columns has to be specified for iterator expression.")
  }
  const sets: Array<Set<number>> = []
  for (let i = 0; i < parts.length; i++) {
    const field = expandField(parts[i] as string, FIELDS[i] as FieldSpec)
    if (Either.isLeft(field)) {
      switch (field.left) {
        case "syntax":
          return Either.left(`[${expr}] is not acceptable`)
        case "negative":
          return Either.left(`[${expr}] is not acceptable,negative numbers not allowed`)
        case "zero-step":
          return Either.left("invalid range: range() arg 3 must not be zero")
        case "range":
          return Either.left(`[${expr}] is not acceptable, out of range`)
      }
    }
    sets.push(field.right)
  }
  const weekdays = new Set([...(sets[4] as Set<number>)].map((d) => (d === 7 ? 0 : d)))
  return Either.right({
    minutes: sets[0] as Set<number>,
    hours: sets[1] as Set<number>,
    days: sets[2] as Set<number>,
    months: sets[3] as Set<number>,
    weekdays,
    seconds: sets[5] ?? new Set([0]),
    years: sets[6],
    dayRestricted: parts[2] !== "*",
    weekdayRestricted: parts[4] !== "*"
  })
}

const dayMatches = (c: CronSchedule, d: Date): boolean => {
  const dom = c.days.has(d.getUTCDate())
  const dow = c.weekdays.has(d.getUTCDay())
  if (c.dayRestricted && c.weekdayRestricted) return dom || dow
  if (c.dayRestricted) return dom
  if (c.weekdayRestricted) return dow
  return true
}

const sorted = (s: ReadonlySet<number>): Array<number> => [...s].sort((a, b) => a - b)

/** Search horizon: croniter gives up ("failed to find next date") on schedules that never fire. */
const MAX_DAYS = 366 * 50

/**
 * `croniter(expr, base).get_next()`: the first firing strictly after `afterMicros` (UTC), in epoch
 * seconds; undefined when none is found.
 */
export const nextFiring = (c: CronSchedule, afterMicros: number): number | undefined => {
  const after = Math.floor(afterMicros / 1e6) // whole seconds; the next firing is strictly later
  const start = new Date(after * 1000)
  const hours = sorted(c.hours)
  const minutes = sorted(c.minutes)
  const seconds = sorted(c.seconds)
  let day = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate())
  for (let i = 0; i < MAX_DAYS; i++, day += 86_400_000) {
    const d = new Date(day)
    if (c.years !== undefined && !c.years.has(d.getUTCFullYear())) continue
    if (!c.months.has(d.getUTCMonth() + 1) || !dayMatches(c, d)) continue
    for (const h of hours) {
      for (const m of minutes) {
        for (const s of seconds) {
          const t = day / 1000 + h * 3600 + m * 60 + s
          if (t > after) return t
        }
      }
    }
  }
  return undefined
}
