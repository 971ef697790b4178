/**
 * A tool call's arguments as Hermes 0.19.0 reads them before running the tool
 * (`_parse_tool_arguments`): `json.loads` (NaN, big ints and 1.0 kept as Python has them), and only
 * a JSON object runs the tool. Valid JSON of another kind ([1], NaN, null) gets the invalid-arguments
 * result and no tool runs, no progress callback fires (observed live: scenarios/tools/
 * tools-arguments-not-an-object.json).
 */
import { isDict, pyDumps, pyJsonLoads, pyStrip, toHandlerValue } from "../../python/index.js"
import type { AgentMessage } from "../AgentMessages.js"

export type ParsedToolArguments =
  | { readonly _tag: "Object"; readonly args: Record<string, unknown> }
  | { readonly _tag: "NotAnObject" }

/** The tool result Hermes answers for arguments that are JSON but not an object. */
export const INVALID_ARGUMENTS_RESULT = pyDumps(
  { error: "Invalid tool arguments", message: "Tool arguments must be a valid JSON object; tool was not executed." },
  false
)

export const parseToolArguments = (raw: string): ParsedToolArguments => {
  // blank arguments become "{}" before the tool loop sees them
  if (pyStrip(raw) === "") return { _tag: "Object", args: {} }
  const parsed = pyJsonLoads(raw)
  // Text json.loads rejects does not reach a tool: the agent loop repairs it or asks the model again
  // first (ToolArgumentRepair.ts), as upstream's streamed call does; {} keeps this total.
  if (parsed._tag === "Left") return { _tag: "Object", args: {} }
  const value = toHandlerValue(parsed.right)
  return isDict(value) ? { _tag: "Object", args: value } : { _tag: "NotAnObject" }
}

/**
 * The argument text a round that runs a tool keeps: blank text becomes "{}" for every call of the
 * round (an unknown tool's too) before anything is stored, as Hermes' JSON check of the round's calls
 * does; a round where no call names an enabled tool keeps its text as written.
 */
export const roundArgumentText = (raw: string): string => (pyStrip(raw) === "" ? "{}" : raw)

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

/**
 * Before every model call Hermes sets the blank (or missing) argument text of every tool call in the
 * transcript to "{}", in place (`sanitize_tool_call_arguments`), so an unknown-tool round's blank
 * text is stored as "{}" once the model is called again. Its other repair, of text json.loads
 * refuses, never has work on 0.19.0: such text never reaches the transcript (ToolArgumentRepair.ts),
 * and callers' histories carry no tool calls.
 */
export const blankArgumentsToEmptyObjects = (transcript: ReadonlyArray<AgentMessage>): void => {
  for (const m of transcript) {
    if (m["role"] !== "assistant" || !Array.isArray(m["tool_calls"])) continue
    for (const tc of m["tool_calls"] as ReadonlyArray<unknown>) {
      if (!isObject(tc) || !isObject(tc["function"])) continue
      const args = tc["function"]["arguments"]
      if (args === undefined || args === null || (typeof args === "string" && pyStrip(args) === "")) tc["function"]["arguments"] = "{}"
    }
  }
}

/** The arguments as the tool and its callbacks get them: {} where they are not an object. */
export const toolArgumentsOf = (raw: string): Record<string, unknown> => {
  const parsed = parseToolArguments(raw)
  return parsed._tag === "Object" ? parsed.args : {}
}
