import { Data } from "effect"

/**
 * What `json.loads` raised, as Python would report it. `pyType` matters
 * because upstream may catch `json.JSONDecodeError` and `ValueError`
 * differently, and `message` is `str(exc)` so it can be echoed verbatim.
 *
 * - JSONDecodeError: syntax errors; `pos` is a code-point offset (Python
 *   str index), `lineno`/`colno` are 1-based as Python computes them.
 * - ValueError: an int literal longer than Python's 4300-digit
 *   int-from-string limit (CPython >= 3.11 default).
 * - RecursionError: nesting deeper than the interpreter's stack allows.
 */
export class PyJsonDecodeError extends Data.TaggedError("PyJsonDecodeError")<{
  readonly pyType: "JSONDecodeError" | "ValueError" | "RecursionError"
  readonly message: string
  /** JSONDecodeError.msg (message without the position suffix). */
  readonly msg: string
  readonly pos: number
  readonly lineno: number
  readonly colno: number
}> {}
