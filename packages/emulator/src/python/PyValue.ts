/**
 * A JSON value as CPython would hold it after `json.loads`.
 *
 * JS `JSON.parse` collapses distinctions Python keeps (1 vs 1.0, big ints,
 * -0.0, duplicate keys), and those distinctions leak into upstream's
 * responses and idempotency fingerprints. So str/bool/None stay JS
 * primitives (cheap on the hot path) and only numbers and containers are
 * wrapped. Classes (not plain tagged objects) let `fromJs` tell an embedded
 * PyValue apart from a user object that merely has a `_tag` key.
 */

/** Python `int`: arbitrary precision. */
export class PyInt {
  readonly _tag = "int" as const
  constructor(readonly value: bigint) {}
}

/** Python `float`: an IEEE double, including -0.0, inf and nan. */
export class PyFloat {
  readonly _tag = "float" as const
  constructor(readonly value: number) {}
}

/** Python `list`. */
export class PyList {
  readonly _tag = "list" as const
  constructor(readonly items: Array<PyValue>) {}
}

/**
 * Python `dict` with str keys. A JS Map has exactly dict's ordering rule:
 * re-setting an existing key replaces the value but keeps its first position,
 * which is what `json.loads` does with duplicate keys.
 */
export class PyDict {
  readonly _tag = "dict" as const
  constructor(readonly entries: Map<string, PyValue>) {}
}

/** str (may hold lone surrogates, as Python str can), bool, None, or a wrapper. */
export type PyValue = null | boolean | string | PyInt | PyFloat | PyList | PyDict

export const pyFloat = (value: number): PyFloat => new PyFloat(value)

export const isPyValueWrapper = (u: unknown): u is PyInt | PyFloat | PyList | PyDict =>
  u instanceof PyInt || u instanceof PyFloat || u instanceof PyList || u instanceof PyDict
