import { Data } from "effect"

/**
 * A Python ValueError raised while rendering a value (json.dumps / repr).
 * Thrown rather than returned: it only arises for values `json.loads` can
 * never produce (ints over 4300 digits, NaN with allowNan=false), so callers
 * on the hot path need not unwrap anything.
 */
export class PyValueError extends Data.TaggedError("PyValueError")<{
  readonly message: string
}> {}
