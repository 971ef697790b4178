/**
 * Tool-call argument text json.loads refuses, as Hermes' streamed model call handles it when it
 * assembles the reply (`_repair_tool_call_arguments`): the text is repaired when a few common
 * repairs make it parse (a trailing comma, unclosed or extra closing brackets, raw control
 * characters inside strings) and the call goes on with the repaired text; when none does, the
 * reply counts as cut off by the length limit, and the agent loop asks the model again
 * (AgentLoop.ts). Observed live on 0.19.0 (tools profile, evidence/live-comparisons/
 * runs-responses-edges/): `{"todos": [...],}` ran todo with the comma gone and was stored so;
 * `not json` and `{bad}` ran nothing and the model was called again with the same transcript.
 * Every route streams its model calls (Hermes prefers streaming whenever the client is not a
 * mock), so this is the one path.
 */
import { Either } from "effect"
import { pyJsonDumps, pyJsonLoads, pyStrip } from "../python/index.js"

/** What a reply's argument text becomes: kept, repaired, or unrepairable (the reply is cut off). */
export type ArgumentText =
  | { readonly _tag: "kept"; readonly text: string }
  | { readonly _tag: "repaired"; readonly text: string }
  | { readonly _tag: "unrepairable" }

const parses = (text: string): boolean => Either.isRight(pyJsonLoads(text))

/**
 * `_escape_invalid_chars_in_json_strings`: raw control characters inside string values become
 * `\u00XX` escapes; an escape sequence is passed over as a pair.
 */
export const escapeControlCharsInStrings = (raw: string): string => {
  let out = ""
  let inString = false
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i] as string
    if (inString && ch === "\\" && i + 1 < raw.length) {
      out += ch + raw[i + 1]
      i++
      continue
    }
    if (ch === '"') inString = !inString
    else if (inString && ch.charCodeAt(0) < 0x20) {
      out += `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`
      continue
    }
    out += ch
  }
  return out
}

const count = (text: string, ch: string): number => text.split(ch).length - 1

/** The bracket repairs: closers for what is left open, then extra closers dropped from the end. */
const rebalanced = (text: string): string => {
  let fixed = text.replace(/,\s*([}\]])/g, "$1")
  const openCurly = count(fixed, "{") - count(fixed, "}")
  const openBracket = count(fixed, "[") - count(fixed, "]")
  if (openCurly > 0) fixed += "}".repeat(openCurly)
  if (openBracket > 0) fixed += "]".repeat(openBracket)
  for (let i = 0; i < 50 && !parses(fixed); i++) {
    if (fixed.endsWith("}") && count(fixed, "}") > count(fixed, "{")) fixed = fixed.slice(0, -1)
    else if (fixed.endsWith("]") && count(fixed, "]") > count(fixed, "[")) fixed = fixed.slice(0, -1)
    else break
  }
  return fixed
}

/** `_repair_tool_call_arguments`: the repaired text, or "{}" when nothing made it parse. */
export const repairToolArguments = (raw: string): string => {
  const stripped = pyStrip(raw)
  if (stripped === "" || stripped === "None") return "{}"
  // json.loads(strict=False) takes raw control characters in strings: the same as escaping them first
  const lenient = pyJsonLoads(escapeControlCharsInStrings(stripped))
  if (Either.isRight(lenient)) return pyJsonDumps(lenient.right, { separators: [",", ":"] })
  const fixed = rebalanced(stripped)
  if (parses(fixed)) return fixed
  const escaped = escapeControlCharsInStrings(fixed)
  if (escaped !== fixed && parses(escaped)) return escaped
  return "{}"
}

/** The argument text of one call of a streamed reply: blank and parsing texts are kept as they are. */
export const streamedArgumentText = (text: string): ArgumentText => {
  if (pyStrip(text) === "" || parses(text)) return { _tag: "kept", text }
  const repaired = repairToolArguments(text)
  return repaired === "{}" ? { _tag: "unrepairable" } : { _tag: "repaired", text: repaired }
}
