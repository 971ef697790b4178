/**
 * Hermes' repair of a tool call naming a tool the agent does not have (`_repair_tool_call`, run on
 * every call of a reply before the names are validated): the name becomes one of the agent's tools
 * when a spelling of it is one — lower-cased, snake-cased, without a trailing "tool" suffix — or,
 * failing that, when a tool name is close to it (difflib, cutoff 0.7). The call then runs, and is
 * stored, under the repaired name. Observed live on 0.19.0 (tools profile): `read_terminal` and
 * `close_terminal`, desktop-only tools the agent is not offered, run as `terminal`.
 */
import { closestMatch } from "../../python/index.js"

const FUZZY_CUTOFF = 0.7

/** Characters a protocol-translating endpoint leaks after the name (XML attribute fragments). */
const LEAKED_SEPARATORS = ["\"", "'", "<", ">"]

/** Python's str.lower() for the spellings compared here. */
const lower = (s: string): string => s.toLowerCase()

const snakeCase = (s: string): string => lower(s).replaceAll("-", "_").replaceAll(" ", "_")

/** An underscore before every ASCII capital but a leading one, then lower-cased. */
const camelToSnake = (s: string): string => lower(s.replace(/(?<!^)(?=[A-Z])/g, "_"))

const withoutToolSuffix = (s: string): string | undefined => {
  const lc = lower(s)
  for (const suffix of ["_tool", "-tool", "tool"]) {
    // the suffix is ASCII, so lower-casing kept the tail's length
    if (lc.endsWith(suffix)) return s.slice(0, s.length - suffix.length).replace(/[_-]+$/, "")
  }
  return undefined
}

/** The agent tool the name is repaired to, or undefined when it stays unknown. */
export const repairToolName = (name: string, agentTools: ReadonlySet<string>): string | undefined => {
  let trimmed = name
  for (const separator of LEAKED_SEPARATORS) {
    const at = trimmed.indexOf(separator)
    if (at > 0) trimmed = trimmed.slice(0, at)
  }
  if (trimmed === "") return undefined
  const lowered = lower(trimmed)
  if (agentTools.has(lowered)) return lowered
  const normalized = snakeCase(trimmed)
  if (agentTools.has(normalized)) return normalized
  let candidates = new Set([trimmed, lowered, normalized, camelToSnake(trimmed)])
  for (let pass = 0; pass < 2; pass++) {
    const more = new Set(candidates)
    for (const candidate of candidates) {
      const stripped = withoutToolSuffix(candidate)
      if (stripped === undefined) continue
      more.add(stripped).add(snakeCase(stripped)).add(camelToSnake(stripped))
    }
    candidates = more
  }
  for (const candidate of candidates) if (candidate !== "" && agentTools.has(candidate)) return candidate
  return closestMatch(lowered, agentTools, FUZZY_CUTOFF)
}
