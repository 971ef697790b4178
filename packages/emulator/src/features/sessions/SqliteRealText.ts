/**
 * The text SQLite makes of a REAL stored in a TEXT-affinity column (hermes_messages.content):
 * printf's `%!.15g`, 15 significant digits, always a decimal point, a two-digit exponent at least
 * (observed with SQLite 3.40.1 under 0.19.0's Python: 1e300 → "1.0e+300", 1e-07 → "1.0e-07",
 * 0.1 + 0.2 → "0.3"). Python's repr, which json.dumps writes, differs on all three.
 */
const withPoint = (digits: string): string => {
  const trimmed = digits.includes(".") ? digits.replace(/0+$/, "").replace(/\.$/, "") : digits
  return trimmed.includes(".") ? trimmed : `${trimmed}.0`
}

/** A finite float as SQLite's TEXT affinity writes it. */
export const sqliteRealText = (x: number): string => {
  const [mantissa = "", exp = "0"] = x.toExponential(14).split("e")
  const exponent = Number(exp)
  if (exponent < -4 || exponent >= 15) {
    const sign = exponent < 0 ? "-" : "+"
    return `${withPoint(mantissa)}e${sign}${String(Math.abs(exponent)).padStart(2, "0")}`
  }
  return withPoint(x.toPrecision(15))
}
