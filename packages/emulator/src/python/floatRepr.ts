/**
 * Python `repr(float)`: shortest round-trip digits (JS computes the same
 * digits), but Python's layout: fixed notation only while the decimal
 * exponent is in [-4, 16), always a ".0" on integral values, and a signed,
 * at-least-two-digit exponent otherwise ("1e+16", "1e-05").
 */
export const pyFloatRepr = (x: number): string => {
  if (Number.isNaN(x)) return "nan"
  if (x === Infinity) return "inf"
  if (x === -Infinity) return "-inf"
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0"
  const ax = Math.abs(x)
  // Fast path: in this range JS also uses fixed notation with the same
  // shortest digits; only Python's ".0" on integral values is missing.
  if (ax >= 1e-4 && ax < 1e16) {
    const s = String(x)
    return s.includes(".") ? s : s + ".0"
  }
  const sign = x < 0 ? "-" : ""
  // toExponential() with no argument yields the shortest round-trip digits.
  const exp = ax.toExponential()
  const ePos = exp.indexOf("e")
  const mantissa = exp.slice(0, ePos)
  // past the fast path the exponent is ≤ -5 or ≥ 16: Python always writes those in exponent form
  const exponent = Number(exp.slice(ePos + 1))
  const abs = Math.abs(exponent)
  const expText = `${exponent < 0 ? "-" : "+"}${abs < 10 ? "0" : ""}${abs}`
  return `${sign}${mantissa}e${expText}`
}

/** How `json.dumps` (allow_nan=True, the default) spells a float. */
export const pyJsonFloat = (x: number): string => {
  if (Number.isNaN(x)) return "NaN"
  if (x === Infinity) return "Infinity"
  if (x === -Infinity) return "-Infinity"
  return pyFloatRepr(x)
}
