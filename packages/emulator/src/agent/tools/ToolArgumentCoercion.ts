/**
 * Hermes 0.19.0 coerces a registry tool's parsed arguments to the types its JSON schema declares
 * before dispatching it (`coerce_tool_args`): a string where the schema wants an integer or a
 * boolean is read as one; a string that does not read as the wanted type stays as it was. The
 * arguments are changed in place (upstream mutates the dict the agent loop holds), so what the
 * tool-loop guardrails see afterwards is the coerced form; the argument text stored in the
 * transcript is not touched.
 *
 * Only `terminal` is coerced here: `todo` is run by the agent itself and gets its arguments as
 * parsed (TodoList.ts; observed live: scenarios/tools/tools-todo-todos-not-a-list.json), and the
 * emulator answers `process` a fixed marker whatever its arguments. Of upstream's rules only the
 * scalar ones are kept, for terminal's integer and boolean properties: its other properties are
 * strings, and `watch_patterns` (an array: upstream would parse or wrap it) is not emulated, so the
 * array, object, null, union and nested-JSON rules would be code no emulated tool could show.
 */
import { PyInt, pyFloatParse, pyStrip, toHandlerValue } from "../../python/index.js"

type ScalarType = "integer" | "boolean"

/** The scalar properties of the coerced tools the emulator runs (TERMINAL_SCHEMA at 0.19.0). */
const SCALAR_PROPERTIES: Readonly<Record<string, Readonly<Record<string, ScalarType>>>> = {
  terminal: { background: "boolean", timeout: "integer", pty: "boolean", notify_on_complete: "boolean" }
}

/** float(value) as an int when it is whole; a fraction, inf, nan or text float() refuses stays the string. */
const coerceInteger = (value: string): unknown => {
  const f = pyFloatParse(value)
  return f !== undefined && Number.isInteger(f) ? toHandlerValue(new PyInt(BigInt(f))) : value
}

const coerceBoolean = (value: string): unknown => {
  const low = pyStrip(value).toLowerCase()
  return low === "true" ? true : low === "false" ? false : value
}

/** A tool call's arguments as the tool gets them: coerced in place (and returned) for the tools above. */
export const coerceToolArguments = (tool: string, args: Record<string, unknown>): Record<string, unknown> => {
  const properties = Object.hasOwn(SCALAR_PROPERTIES, tool) ? SCALAR_PROPERTIES[tool] : undefined
  if (properties === undefined) return args
  for (const [key, value] of Object.entries(args)) {
    const type = Object.hasOwn(properties, key) ? properties[key] : undefined
    if (type === undefined || typeof value !== "string") continue
    args[key] = type === "integer" ? coerceInteger(value) : coerceBoolean(value)
  }
  return args
}
