const DAY_MICROS = 86_400_000_000
const SECOND_MICROS = 1_000_000

/**
 * `repr(timedelta(microseconds=micros))`: Python keeps days (signed), seconds in [0, 86400) and
 * microseconds in [0, 10^6), and names only the parts that are not zero.
 */
export const pyTimedeltaRepr = (micros: number): string => {
  const days = Math.floor(micros / DAY_MICROS)
  const rest = micros - days * DAY_MICROS
  const seconds = Math.floor(rest / SECOND_MICROS)
  const microseconds = rest - seconds * SECOND_MICROS
  const parts = [
    ...(days !== 0 ? [`days=${days}`] : []),
    ...(seconds !== 0 ? [`seconds=${seconds}`] : []),
    ...(microseconds !== 0 ? [`microseconds=${microseconds}`] : [])
  ]
  return `datetime.timedelta(${parts.length === 0 ? "0" : parts.join(", ")})`
}
