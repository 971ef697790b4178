import { isPyValueWrapper, PyDict, PyFloat, PyInt, PyList, type PyValue } from "./PyValue.js"

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/**
 * PyValue -> the value handlers work with: JSON-shaped JS, except where JS would lose what Python
 * keeps and a client could see it echoed back: integral floats stay `PyFloat` (1.0 is not 1), ints
 * beyond 2^53 stay `PyInt`. "__proto__" is defined, never assigned, so it stays data (every other
 * key is assigned: defining each cost ~0.25 µs a key).
 */
export const toHandlerValue = (v: PyValue): unknown => {
  if (v === null || typeof v !== "object") return v
  if (v instanceof PyInt) return v.value > MAX_SAFE || v.value < -MAX_SAFE ? v : Number(v.value)
  if (v instanceof PyFloat) return Number.isInteger(v.value) || !Number.isFinite(v.value) ? v : v.value
  if (v instanceof PyList) return v.items.map(toHandlerValue)
  const out: Record<string, unknown> = {}
  for (const [k, item] of v.entries) {
    if (k === "__proto__") {
      Object.defineProperty(out, k, { value: toHandlerValue(item), enumerable: true, writable: true, configurable: true })
    } else out[k] = toHandlerValue(item)
  }
  return out
}

/** A handler value standing for a Python dict (not a list or a wrapped number). */
export const isDict = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !isPyValueWrapper(v)

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
