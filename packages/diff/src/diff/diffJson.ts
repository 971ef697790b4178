/**
 * Structural diff of two JSON values: missing/extra fields, type (int ≠ float ≠ string …), value,
 * array length and key order (Python dicts keep insertion order, and so does the wire).
 */
import { isJsonObject, type JsonValue, jsonTypeOf } from "../json/JsonValue.js"

export interface JsonDifference {
  readonly kind: "missing-field" | "extra-field" | "type" | "value" | "key-order" | "array-length"
  readonly path: string
  readonly expected?: JsonValue
  readonly actual?: JsonValue
}

const keyPath = (base: string, key: string) => (/^[A-Za-z_][\w]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`)

export const diffJson = (expected: JsonValue, actual: JsonValue, path = "$"): Array<JsonDifference> => {
  const te = jsonTypeOf(expected)
  const ta = jsonTypeOf(actual)
  if (te !== ta) return [{ kind: "type", path, expected, actual }]
  if (te === "array") {
    const e = expected as ReadonlyArray<JsonValue>
    const a = actual as ReadonlyArray<JsonValue>
    const out: Array<JsonDifference> = []
    if (e.length !== a.length) out.push({ kind: "array-length", path, expected: e.length, actual: a.length })
    for (let i = 0; i < Math.min(e.length, a.length); i++) out.push(...diffJson(e[i] as JsonValue, a[i] as JsonValue, `${path}[${i}]`))
    return out
  }
  if (te === "object" && isJsonObject(expected) && isJsonObject(actual)) {
    const out: Array<JsonDifference> = []
    const ek = Object.keys(expected)
    const ak = Object.keys(actual)
    for (const k of ek) {
      if (!(k in actual)) out.push({ kind: "missing-field", path: keyPath(path, k), expected: expected[k] as JsonValue })
      else out.push(...diffJson(expected[k] as JsonValue, actual[k] as JsonValue, keyPath(path, k)))
    }
    for (const k of ak) if (!(k in expected)) out.push({ kind: "extra-field", path: keyPath(path, k), actual: actual[k] as JsonValue })
    const commonE = ek.filter((k) => k in actual)
    const commonA = ak.filter((k) => k in expected)
    if (commonE.join("\u0000") !== commonA.join("\u0000")) out.push({ kind: "key-order", path, expected: commonE, actual: commonA })
    return out
  }
  return JSON.stringify(expected) === JSON.stringify(actual) ? [] : [{ kind: "value", path, expected, actual }]
}
