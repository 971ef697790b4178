/**
 * Hermes 0.19.0 coerces a registry tool's parsed arguments to the types its JSON schema declares
 * before dispatching it (`coerce_tool_args`): a string where the schema wants an integer, a number
 * or a boolean is read as one, a string where it wants an array or an object is parsed as JSON, a
 * bare value where it wants an array is wrapped in one, "null" becomes None where the schema allows
 * null, and JSON text nested where the schema wants containers is parsed too. A string that does not
 * read as the wanted type stays as it was. The arguments are changed in place (upstream mutates the
 * dict the agent loop holds), so what the tool-loop guardrails see afterwards is the coerced form;
 * the argument text stored in the transcript is not touched.
 *
 * Only tools dispatched through the registry are coerced: `todo` is run by the agent itself and
 * gets its arguments as parsed (TodoList.ts; observed live: scenarios/tools/
 * tools-todo-todos-not-a-list.json, where a dict `todos` is refused, not wrapped in a list).
 * `process` is coerced upstream too, but the emulator answers it a fixed marker whatever its
 * arguments, so only `terminal`'s schema is needed here.
 */
import { isDict, pyJsonLoads, pyStrip, PyDict, PyInt, PyList, pyFloatParse, pyTruthy, toHandlerValue } from "../../python/index.js"

/** A JSON Schema fragment as a tool's parameters declare it; read as loosely as upstream reads it. */
export type ArgumentSchema = Readonly<Record<string, unknown>>

/** The property schemas of the coerced tools the emulator runs (TERMINAL_SCHEMA at 0.19.0). */
export const TOOL_ARGUMENT_SCHEMAS: Readonly<Record<string, Readonly<Record<string, ArgumentSchema>>>> = {
  terminal: {
    command: { type: "string" },
    background: { type: "boolean" },
    timeout: { type: "integer" },
    workdir: { type: "string" },
    pty: { type: "boolean" },
    notify_on_complete: { type: "boolean" },
    watch_patterns: { type: "array", items: { type: "string" } }
  }
}

/** Marks a coercion that did not apply: the caller keeps the original string (upstream's `is value`). */
const UNCHANGED: unique symbol = Symbol("unchanged")
type Coerced = unknown | typeof UNCHANGED

const isList = (v: unknown): v is Array<unknown> => Array.isArray(v)

/** Whether the schema explicitly permits null: its type, `nullable: true`, or a null branch of anyOf/oneOf. */
export const schemaAllowsNull = (schema: unknown): boolean => {
  if (!isDict(schema)) return false
  const type = schema["type"]
  if (type === "null" || (isList(type) && type.includes("null")) || schema["nullable"] === true) return true
  return ["anyOf", "oneOf"].some((key) => {
    const variants = schema[key]
    return isList(variants) && variants.some((v) => isDict(v) && v["type"] === "null")
  })
}

/** Whether the schema accepts a JSON `kind` ("array" or "object"), through anyOf/oneOf/allOf branches too. */
const acceptsKind = (schema: unknown, kind: "array" | "object"): boolean => {
  if (!isDict(schema)) return false
  const type = schema["type"]
  if (type === kind || (isList(type) && type.includes(kind))) return true
  return ["anyOf", "oneOf", "allOf"].some((key) => {
    const branches = schema[key]
    return isList(branches) && branches.some((b) => acceptsKind(b, kind))
  })
}

/** float(value), then an int when it has no fraction; inf and nan (not JSON) and refused text stay. */
const coerceNumber = (value: string, integerOnly: boolean): Coerced => {
  const f = pyFloatParse(value)
  if (f === undefined || !Number.isFinite(f)) return UNCHANGED
  if (Number.isInteger(f)) return toHandlerValue(new PyInt(BigInt(f)))
  return integerOnly ? UNCHANGED : f
}

const coerceBoolean = (value: string): Coerced => {
  const low = pyStrip(value).toLowerCase()
  return low === "true" ? true : low === "false" ? false : UNCHANGED
}

/** json.loads(value), kept only when it gives the container the schema wants. */
const coerceJson = (value: string, want: "list" | "dict"): Coerced => {
  const parsed = pyJsonLoads(value)
  if (parsed._tag === "Left") return UNCHANGED
  const ok = want === "list" ? parsed.right instanceof PyList : parsed.right instanceof PyDict
  return ok ? toHandlerValue(parsed.right) : UNCHANGED
}

/** A string read as the expected type (a union tries its members in order). */
const coerceString = (value: string, expected: unknown, schema: unknown): Coerced => {
  if (schemaAllowsNull(schema) && pyStrip(value).toLowerCase() === "null") return null
  if (isList(expected)) {
    for (const t of expected) {
      const result = coerceString(value, t, schema)
      if (result !== UNCHANGED) return result
    }
    return UNCHANGED
  }
  if (expected === "integer" || expected === "number") return coerceNumber(value, expected === "integer")
  if (expected === "boolean") return coerceBoolean(value)
  if (expected === "array") return coerceJson(value, "list")
  if (expected === "object") return coerceJson(value, "dict")
  if (expected === "null" && pyStrip(value).toLowerCase() === "null") return null
  return UNCHANGED
}

/**
 * JSON text nested where the schema wants an array or an object (list items by `items`, dict
 * values by `properties`) parsed into that container, recursively. The same value comes back when
 * nothing changed.
 */
export const normalizeNestedJson = (value: unknown, schema: unknown): unknown => {
  if (!isDict(schema)) return value
  let current = value
  if (typeof current === "string") {
    const trimmed = pyStrip(current)
    const wantsArray = acceptsKind(schema, "array")
    const wantsObject = acceptsKind(schema, "object")
    if (!((wantsArray && trimmed.startsWith("[")) || (wantsObject && trimmed.startsWith("{")))) return value
    const parsed = pyJsonLoads(trimmed)
    if (parsed._tag === "Left") return value
    const fits = parsed.right instanceof PyList ? wantsArray : parsed.right instanceof PyDict && wantsObject
    if (!fits) return value
    current = toHandlerValue(parsed.right)
  }
  if (isList(current)) {
    const items = schema["items"]
    if (!isDict(items)) return current
    const out = current.map((item) => normalizeNestedJson(item, items))
    return out.some((item, i) => item !== current[i]) ? out : current
  }
  if (isDict(current)) {
    const props = schema["properties"]
    if (!isDict(props)) return current
    let out: Record<string, unknown> | undefined
    for (const [key, propSchema] of Object.entries(props)) {
      if (!Object.hasOwn(current, key) || !isDict(propSchema)) continue
      const next = normalizeNestedJson(current[key], propSchema)
      if (next !== current[key]) (out ??= { ...current })[key] = next
    }
    return out ?? current
  }
  return current
}

/** The arguments coerced to these property schemas, in place (and returned). */
export const coerceArguments = (properties: Readonly<Record<string, ArgumentSchema>>, args: Record<string, unknown>): Record<string, unknown> => {
  for (const [key, value] of Object.entries(args)) {
    const schema = Object.hasOwn(properties, key) ? properties[key] : undefined
    if (schema === undefined || Object.keys(schema).length === 0) continue
    const expected = schema["type"]
    if (expected === "array" && value !== null && !isList(value)) {
      // a string may be a JSON array or a nullable "null"; anything else is wrapped whole
      const coerced = typeof value === "string" ? coerceString(value, expected, schema) : UNCHANGED
      args[key] = coerced !== UNCHANGED ? coerced : [value]
      continue
    }
    if (typeof value !== "string") {
      if ((expected === "array" && isList(value)) || (expected === "object" && isDict(value))) {
        args[key] = normalizeNestedJson(value, schema)
      }
      continue
    }
    // a property with no type is coerced only when it allows null ("null" → None)
    if (!pyTruthy(expected) && !schemaAllowsNull(schema)) continue
    const coerced = coerceString(value, expected, schema)
    if (coerced === UNCHANGED) continue
    args[key] = isList(coerced) || isDict(coerced) ? normalizeNestedJson(coerced, schema) : coerced
  }
  return args
}

/** A tool call's arguments as the tool gets them: coerced for the registry tools the emulator runs. */
export const coerceToolArguments = (tool: string, args: Record<string, unknown>): Record<string, unknown> => {
  const properties = Object.hasOwn(TOOL_ARGUMENT_SCHEMAS, tool) ? TOOL_ARGUMENT_SCHEMAS[tool] : undefined
  return properties === undefined ? args : coerceArguments(properties, args)
}
