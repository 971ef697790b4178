/**
 * Python datetime as the cron store writes and reads it: `isoformat()` of an aware datetime
 * (microseconds only when non-zero, offset as ±HH:MM[:SS[.ffffff]]) and `datetime.fromisoformat` (3.11) for the
 * forms a schedule or a stored time uses. Instants are epoch microseconds plus the UTC offset they
 * are shown in. The emulated gateway's configured timezone is UTC (as the oracle runner's is).
 */
import { Either } from "effect"
import { pyTimedeltaRepr } from "../../python/index.js"

export interface ZonedTime {
  /** Epoch microseconds. */
  readonly micros: number
  /** Offset from UTC in seconds; undefined for a naive time. */
  readonly offsetSeconds: number | undefined
}

const pad = (n: number, w = 2): string => String(Math.abs(n)).padStart(w, "0")

/** An offset may hold microseconds (`+05:30:15.25`): counted in whole microseconds, never float residue. */
const offsetMicros = (seconds: number): number => Math.round(seconds * 1e6)

export const fromEpochSeconds = (seconds: number): ZonedTime => ({ micros: Math.round(seconds * 1e6), offsetSeconds: 0 })

/** Wall-clock fields of the time in its own offset (UTC for naive). */
export const wallClock = (t: ZonedTime) => {
  const shifted = t.micros + offsetMicros(t.offsetSeconds ?? 0)
  const ms = Math.floor(shifted / 1000)
  const d = new Date(ms)
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    micro: ((shifted % 1e6) + 1e6) % 1e6,
    weekday: d.getUTCDay()
  }
}

/** Python's offset text: ±HH:MM, then :SS when seconds or microseconds, then .ffffff when microseconds. */
const offsetText = (seconds: number): string => {
  const sign = seconds < 0 ? "-" : "+"
  const micros = Math.abs(offsetMicros(seconds))
  const abs = Math.floor(micros / 1e6)
  const us = micros % 1e6
  const hh = Math.floor(abs / 3600)
  const mm = Math.floor((abs % 3600) / 60)
  const ss = abs % 60
  const secs = ss === 0 && us === 0 ? "" : `:${pad(ss)}`
  return `${sign}${pad(hh)}:${pad(mm)}${secs}${us === 0 ? "" : `.${pad(us, 6)}`}`
}

/** `datetime.isoformat()`. */
export const isoformat = (t: ZonedTime): string => {
  const w = wallClock(t)
  const frac = w.micro === 0 ? "" : `.${pad(w.micro, 6)}`
  const zone = t.offsetSeconds === undefined ? "" : offsetText(t.offsetSeconds)
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${frac}${zone}`
}

/** `strftime(pattern)` for the few directives the cron store uses (%Y %m %d %H %M %S %b). */
export const strftime = (t: ZonedTime, pattern: string): string => {
  const w = wallClock(t)
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
  return pattern.replace(/%([YmdHMSb])/g, (_, c: string) => {
    switch (c) {
      case "Y":
        return pad(w.year, 4)
      case "m":
        return pad(w.month)
      case "d":
        return pad(w.day)
      case "H":
        return pad(w.hour)
      case "M":
        return pad(w.minute)
      case "S":
        return pad(w.second)
      default:
        return months[w.month - 1] ?? ""
    }
  })
}

const daysInMonth = (y: number, m: number): number => new Date(Date.UTC(y, m, 0)).getUTCDate()

const DATE = /^(\d{4})(?:-(\d{2})-(\d{2})|(\d{2})(\d{2}))/
const TIME = /^(\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?/
/** ±HH[:MM[:SS]] with one separator style throughout, a fraction of a second after any part. */
const ZONE = /^(?:Z|([+-])(\d{2})(?:(:?)(\d{2})(?:\3(\d{2}))?)?(?:[.,](\d+))?)$/

/** Up to six fraction digits as microseconds (more are dropped, as Python does). */
const fractionMicros = (digits: string | undefined): number => Number((digits ?? "").slice(0, 6).padEnd(6, "0"))

/** The offset of a ZONE match in seconds; Python 3.11 reads one whose hours, minutes and seconds are all 0 as UTC, its fraction dropped. */
const zoneOffsetSeconds = (zone: RegExpExecArray): number => {
  if (zone[1] === undefined) return 0
  const whole = Number(zone[2]) * 3600 + Number(zone[4] ?? 0) * 60 + Number(zone[5] ?? 0)
  if (whole === 0) return 0
  return (zone[1] === "-" ? -1 : 1) * (whole + fractionMicros(zone[6]) / 1e6)
}

const DAY_SECONDS = 86_400
const OFFSET_RANGE = "offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24)"

/** `datetime.fromisoformat(text)`; Left is the ValueError message. (ISO week dates are not supported.) */
export const fromIsoformat = (text: string): Either.Either<ZonedTime, string> => {
  const invalid = Either.left(`Invalid isoformat string: '${text}'`)
  const date = DATE.exec(text)
  if (date === null) return invalid
  const year = Number(date[1])
  const month = Number(date[2] ?? date[4])
  const day = Number(date[3] ?? date[5])
  let rest = text.slice(date[0].length)
  let hour = 0
  let minute = 0
  let second = 0
  let micro = 0
  let offsetSeconds: number | undefined
  if (rest !== "") {
    // any one character separates the time (observed live: X, x, 5, -, an emoji)
    rest = rest.replace(/^./su, "")
    const time = TIME.exec(rest)
    if (time === null) return invalid
    hour = Number(time[1])
    minute = Number(time[2] ?? 0)
    second = Number(time[3] ?? 0)
    micro = fractionMicros(time[4])
    rest = rest.slice(time[0].length)
    if (rest !== "") {
      const zone = ZONE.exec(rest)
      if (zone === null) return invalid
      offsetSeconds = zoneOffsetSeconds(zone)
      // the tzinfo is built, and its range checked, before the date's fields are
      if (Math.abs(offsetSeconds) >= DAY_SECONDS) return Either.left(`${OFFSET_RANGE}, not ${pyTimedeltaRepr(offsetMicros(offsetSeconds))}.`)
    }
  }
  if (month < 1 || month > 12) return Either.left("month must be in 1..12")
  if (day < 1 || day > daysInMonth(year, month)) return Either.left("day is out of range for month")
  if (hour > 23) return Either.left("hour must be in 0..23")
  if (minute > 59) return Either.left("minute must be in 0..59")
  if (second > 59) return Either.left("second must be in 0..59")
  const wall = Date.UTC(year, month - 1, day, hour, minute, second) * 1000 + micro
  return Either.right({ micros: wall - offsetMicros(offsetSeconds ?? 0), offsetSeconds })
}

/** A naive time read as wall-clock time in the configured zone (UTC). */
export const assumeConfiguredZone = (t: ZonedTime): ZonedTime =>
  t.offsetSeconds === undefined ? { micros: t.micros, offsetSeconds: 0 } : t
