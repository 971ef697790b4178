import { isPyValueWrapper, PyDict, PyFloat, PyInt, PyList, type PyValue } from "./PyValue.js"

/** What handlers get from `toJs`: ordinary JSON-shaped JS. */
export type JsValue = null | boolean | number | bigint | string | Array<JsValue> | { [key: string]: JsValue }

export interface ToJsOptions {
  /**
   * How to surface ints outside ±(2^53-1), which a JS number cannot hold:
   * - "number" (default): nearest double, lossy — same as JSON.parse would give;
   * - "bigint": exact bigint (only for such ints; safe ints stay numbers).
   */
  readonly bigInts?: "number" | "bigint"
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/**
 * PyValue -> plain JS for handler logic. Lossy by design: int vs float is
 * dropped (1 and 1.0 both become 1); big ints follow `bigInts`; and object
 * key order follows JS rules (integer-like keys such as "1" move first).
 * Keep the PyValue when any of that is observable upstream.
 */
export const toJs = (v: PyValue, options?: ToJsOptions): JsValue => {
  const exactBig = options?.bigInts === "bigint"
  const go = (x: PyValue): JsValue => {
    if (x === null || typeof x === "boolean" || typeof x === "string") return x
    if (x instanceof PyInt) {
      const n = x.value
      if (exactBig && (n > MAX_SAFE || n < -MAX_SAFE)) return n
      return Number(n)
    }
    if (x instanceof PyFloat) return x.value
    if (x instanceof PyList) return x.items.map(go)
    const out: { [key: string]: JsValue } = {}
    for (const [k, item] of x.entries) {
      // defineProperty so a "__proto__" key stays data, not a prototype swap.
      Object.defineProperty(out, k, { value: go(item), enumerable: true, writable: true, configurable: true })
    }
    return out
  }
  return go(v)
}

/**
 * Plain JS -> PyValue for building responses. An integral number (not -0)
 * becomes int, any other number float (-0, NaN, ±Infinity included); bigint
 * becomes int. To force a float such as 1.0, embed `pyFloat(1)`: PyValue
 * wrappers pass through untouched anywhere in the tree. Like JSON.stringify,
 * `toJSON()` is honoured, undefined/function/symbol object members are
 * omitted and become null inside arrays; Maps become dicts.
 */
export const fromJs = (u: unknown): PyValue => {
  const go = (x: unknown, inArray: boolean): PyValue | undefined => {
    if (x === null || typeof x === "boolean" || typeof x === "string") return x
    if (typeof x === "number") {
      return Number.isInteger(x) && !Object.is(x, -0) ? new PyInt(BigInt(x)) : new PyFloat(x)
    }
    if (typeof x === "bigint") return new PyInt(x)
    if (x === undefined || typeof x === "function" || typeof x === "symbol") return inArray ? null : undefined
    if (isPyValueWrapper(x)) return x
    const obj = x as { toJSON?: unknown }
    if (typeof obj.toJSON === "function") return go((obj.toJSON as () => unknown).call(x), inArray)
    if (Array.isArray(x)) return new PyList(x.map((item: unknown) => go(item, true) as PyValue))
    const map = new Map<string, PyValue>()
    const entries: Iterable<readonly [unknown, unknown]> = x instanceof Map ? x : Object.entries(x)
    for (const [k, item] of entries) {
      const py = go(item, false)
      if (py !== undefined) map.set(String(k), py)
    }
    return new PyDict(map)
  }
  return go(u, true) ?? null
}
