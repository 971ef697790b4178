/**
 * JSON values as the differ sees them. Python tells `1.0` from `1` on the wire, JavaScript does
 * not, so an integral float literal is kept as `{"$float": "1.0"}` and an integer beyond 2^53 as
 * `{"$bigint": "…"}`: a type difference between the real server and the emulator stays visible.
 */
import { Schema } from "effect"

export type JsonValue = null | boolean | number | string | ReadonlyArray<JsonValue> | { readonly [key: string]: JsonValue }
export type JsonObject = { readonly [key: string]: JsonValue }

export const JsonValue: Schema.Schema<JsonValue> = Schema.suspend(
  (): Schema.Schema<JsonValue> =>
    Schema.Union(
      Schema.Null,
      Schema.Boolean,
      Schema.Number,
      Schema.String,
      Schema.Array(JsonValue),
      Schema.Record({ key: Schema.String, value: JsonValue })
    )
).annotations({ identifier: "JsonValue" })

export const isJsonObject = (v: JsonValue | undefined): v is JsonObject =>
  typeof v === "object" && v !== null && !Array.isArray(v)

/** An integral float literal such as `1.0`, kept apart from the int `1`. */
export const isFloatMarker = (v: JsonValue): v is { readonly $float: string } =>
  isJsonObject(v) && Object.keys(v).length === 1 && typeof v["$float"] === "string"

export const isBigIntMarker = (v: JsonValue): v is { readonly $bigint: string } =>
  isJsonObject(v) && Object.keys(v).length === 1 && typeof v["$bigint"] === "string"

/** The JSON type name used in type differences: int and float are different types, as in Python. */
export const jsonTypeOf = (v: JsonValue): "null" | "bool" | "int" | "float" | "string" | "array" | "object" => {
  if (v === null) return "null"
  if (typeof v === "boolean") return "bool"
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float"
  if (typeof v === "string") return "string"
  if (Array.isArray(v)) return "array"
  if (isFloatMarker(v)) return "float"
  if (isBigIntMarker(v)) return "int"
  return "object"
}

/** The numeric value of a number or a number marker; undefined for anything else. */
export const numericValue = (v: JsonValue | undefined): number | undefined => {
  if (typeof v === "number") return v
  if (v !== undefined && (isFloatMarker(v))) return Number(v.$float)
  if (v !== undefined && isBigIntMarker(v)) return Number(v.$bigint)
  return undefined
}
