/**
 * `{alias.field.sub}` references to values of earlier responses, so identities are compared as a
 * graph: the real gateway's run id goes into the real gateway's next request, the emulator's into
 * the emulator's. A reference that cannot be resolved is an error, never an empty string.
 */
import { Data } from "effect"
import type { JsonValue } from "../json/JsonValue.js"
import { isJsonObject } from "../json/JsonValue.js"

export class UnresolvedReference extends Data.TaggedError("UnresolvedReference")<{
  readonly reference: string
  readonly reason: string
}> {
  override get message(): string {
    return `cannot resolve {${this.reference}}: ${this.reason}`
  }
}

/** Response bodies (parsed JSON) of the steps named with `as`. */
export type Bindings = ReadonlyMap<string, JsonValue>

const REFERENCE = /\{([A-Za-z_][\w-]*)((?:\.[\w-]+)+)\}/g

const lookup = (bindings: Bindings, alias: string, path: ReadonlyArray<string>): string => {
  const root = bindings.get(alias)
  if (root === undefined) throw new UnresolvedReference({ reference: [alias, ...path].join("."), reason: `no earlier step is named "${alias}"` })
  let value: JsonValue | undefined = root
  for (const key of path) {
    if (Array.isArray(value) && /^\d+$/.test(key)) value = (value as ReadonlyArray<JsonValue>)[Number(key)]
    else value = isJsonObject(value) ? value[key] : undefined
    if (value === undefined) throw new UnresolvedReference({ reference: [alias, ...path].join("."), reason: `"${alias}" has no field ${path.join(".")}` })
  }
  return typeof value === "string" ? value : JSON.stringify(value)
}

/** Replaces every reference in a string. */
export const resolveString = (text: string, bindings: Bindings): string =>
  text.replace(REFERENCE, (_m, alias: string, dotted: string) => lookup(bindings, alias, dotted.slice(1).split(".")))

/** Replaces references in every string of a JSON value (keys stay as written). */
export const resolveJson = (value: JsonValue, bindings: Bindings): JsonValue => {
  if (typeof value === "string") return resolveString(value, bindings)
  if (Array.isArray(value)) return (value as ReadonlyArray<JsonValue>).map((v) => resolveJson(v, bindings))
  if (isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveJson(v, bindings)]))
  return value
}
