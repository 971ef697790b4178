import { PyValueError } from "./PyValueError.js"

// CPython >= 3.11 refuses int -> str beyond sys.get_int_max_str_digits() (4300).
const LIMIT = 10n ** 4300n
const NEG_LIMIT = -LIMIT

/** Python `repr(int)` / `str(int)`, including the digit-limit ValueError. */
export const pyIntRepr = (v: bigint): string => {
  if (v >= LIMIT || v <= NEG_LIMIT) {
    throw new PyValueError({
      message:
        "Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit"
    })
  }
  return v.toString()
}
