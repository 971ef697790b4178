/**
 * The messages one model call sends, built from the agent's transcript as Hermes 0.19.0 builds its
 * per-call copy (agent/conversation_loop.py, for the chat-completions provider the oracle runner
 * configures): each message copied without Hermes' bookkeeping (`api_content` replayed as the
 * content, `reasoning`, `reasoning_content` — this provider does not echo reasoning back —,
 * `finish_reason`, `_`-prefixed markers, the Codex ids of tool calls), the system message in
 * front, then the pre-call sanitizer (agent_runtime_helpers.sanitize_api_messages: roles the API
 * accepts, empty tool_calls dropped, orphaned tool results dropped, missing ones stubbed, repeated
 * ids dropped), then every string content stripped and tool-call arguments re-dumped compact with
 * sorted keys (repaired, ToolArgumentRepair.ts, when they do not parse); last the chat-completions
 * transport drops the fields no strict provider takes
 * (agent/transports/chat_completions.py: `timestamp` of a stored history message, `tool_name` of a
 * tool result, Codex items), and a model without vision gets image parts as text (NonVisionImages.ts).
 * The transcript itself is never changed. The scripted model logs these (ReceivedCalls).
 */
import { Either } from "effect"
import { pyJsonDumps, pyJsonLoads, pyStrip } from "../python/index.js"
import type { AgentMessage } from "./AgentMessages.js"
import { imagesAsText } from "./NonVisionImages.js"
import { repairToolArguments } from "./ToolArgumentRepair.js"

/**
 * Hermes' own system prompt (identity, platform hints, "Conversation started: <date>", model and
 * provider) is not emulated: this stands in for it. The caller's ephemeral system prompt follows it
 * after a blank line, as upstream appends it; the shared view (packages/diff/src/modelCalls)
 * compares only what follows the "Conversation started:" block.
 */
export const CORE_SYSTEM_PROMPT_STANDIN = "[Hermes core system prompt, not emulated]\nConversation started: (emulated)"

/** `AIAgent._VALID_API_ROLES`: the pre-call sanitizer drops any other role. */
const VALID_API_ROLES: ReadonlySet<unknown> = new Set(["system", "user", "assistant", "tool", "function", "developer"])

/** Keys of a tool call only the Codex Responses API takes (`_sanitize_tool_calls_for_strict_api`). */
const CODEX_TOOL_CALL_KEYS: ReadonlySet<string> = new Set(["call_id", "response_item_id", "extra_content"])

/** The stub a tool call whose result is missing gets (sanitize_api_messages). */
export const MISSING_RESULT_STUB = "[Result unavailable — see context summary above]"

const toolCallsOf = (m: AgentMessage): ReadonlyArray<unknown> => (Array.isArray(m["tool_calls"]) ? (m["tool_calls"] as ReadonlyArray<unknown>) : [])

const isDictLike = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

/** `_get_tool_call_id_static`: a dict's `id`, else "". */
const callId = (tc: unknown): string => (isDictLike(tc) && typeof tc["id"] === "string" ? tc["id"] : "")

const callName = (tc: unknown): unknown => (isDictLike(tc) && isDictLike(tc["function"]) ? tc["function"]["name"] : undefined)

/** Message fields the per-call copy drops (reasoning is not echoed back to this provider). */
const NOT_SENT: ReadonlySet<string> = new Set(["api_content", "reasoning", "reasoning_content", "finish_reason"])

/** Message fields the chat-completions transport drops on the way out. */
const NOT_SCHEMA: ReadonlySet<string> = new Set(["codex_reasoning_items", "codex_message_items", "tool_name", "effect_disposition", "timestamp"])

/** The per-call copy of one transcript message. */
const apiCopy = (msg: AgentMessage): AgentMessage => {
  const copy: AgentMessage = {}
  for (const [k, v] of Object.entries(msg)) {
    if (k.startsWith("_") || NOT_SENT.has(k) || NOT_SCHEMA.has(k)) continue
    copy[k] = v
  }
  const sidecar = msg["api_content"]
  if (typeof sidecar === "string" && sidecar !== "" && (msg["role"] === "user" || msg["role"] === "assistant")) copy["content"] = sidecar
  if (Array.isArray(copy["tool_calls"])) {
    copy["tool_calls"] = (copy["tool_calls"] as ReadonlyArray<unknown>).map((tc) =>
      isDictLike(tc) ? Object.fromEntries(Object.entries(tc).filter(([k]) => !CODEX_TOOL_CALL_KEYS.has(k))) : tc
    )
  }
  return copy
}

/** `sanitize_api_messages`, on the per-call copies. */
export const sanitizeApiMessages = (input: ReadonlyArray<AgentMessage>): Array<AgentMessage> => {
  let messages = input.filter((m) => VALID_API_ROLES.has(m["role"]))
  messages = messages.map((m) => {
    if (m["role"] !== "assistant" || !("tool_calls" in m) || toolCallsOf(m).length > 0) return m
    const { tool_calls: _dropped, ...rest } = m
    return rest
  })
  const calls = new Set<string>()
  for (const m of messages) if (m["role"] === "assistant") for (const id of toolCallIds(m)) calls.add(id)
  const results = new Set<string>()
  for (const m of messages) if (m["role"] === "tool") results.add(resultId(m))
  results.delete("")
  const orphans = [...results].filter((id) => !calls.has(id))
  if (orphans.length > 0) messages = messages.filter((m) => !(m["role"] === "tool" && orphans.includes(resultId(m))))
  const missing = [...calls].filter((id) => !results.has(id))
  if (missing.length > 0) {
    const patched: Array<AgentMessage> = []
    for (const m of messages) {
      patched.push(m)
      if (m["role"] !== "assistant") continue
      for (const tc of toolCallsOf(m)) {
        const id = callId(tc)
        if (missing.includes(id)) patched.push({ role: "tool", name: callName(tc), content: MISSING_RESULT_STUB, tool_call_id: id })
      }
    }
    messages = patched
  }
  const seenCalls = new Set<string>()
  const seenResults = new Set<string>()
  const deduped: Array<AgentMessage> = []
  for (const m of messages) {
    if (m["role"] === "assistant" && toolCallsOf(m).length > 0) {
      const kept = toolCallsOf(m).filter((tc) => {
        const id = callId(tc)
        if (id !== "" && seenCalls.has(id)) return false
        if (id !== "") seenCalls.add(id)
        return true
      })
      deduped.push(kept.length === toolCallsOf(m).length ? m : { ...m, tool_calls: kept })
    } else if (m["role"] === "tool") {
      const id = resultId(m)
      if (id !== "" && seenResults.has(id)) continue
      if (id !== "") seenResults.add(id)
      deduped.push(m)
    } else deduped.push(m)
  }
  return deduped
}

const toolCallIds = (m: AgentMessage): Array<string> => toolCallsOf(m).map(callId).filter((id) => id !== "")

const resultId = (m: AgentMessage): string => (typeof m["tool_call_id"] === "string" ? pyStrip(m["tool_call_id"]) : "")

/**
 * Tool-call arguments as Hermes re-dumps them for stable prefixes; unparsable ones (the blank text an
 * unknown-tool round kept) go through the argument repair, which makes "{}" of what it cannot fix.
 */
const compactArguments = (args: unknown): unknown => {
  if (typeof args !== "string") return args
  const parsed = pyJsonLoads(args)
  return Either.isRight(parsed) ? pyJsonDumps(parsed.right, { sortKeys: true, separators: [",", ":"] }) : repairToolArguments(args)
}

/**
 * The messages of the model call the agent makes now: `transcript` as the model receives it. The
 * iteration-limit summary call (IterationLimitSummary.ts) builds its copy by hand and skips the
 * loop's normalization and the transport: arguments are not re-dumped (observed live on 0.19.0),
 * contents not stripped, image parts not rewritten (read in handle_max_iterations, not recorded).
 */
export const apiMessages = (
  transcript: ReadonlyArray<AgentMessage>,
  ephemeralSystemPrompt: string | undefined,
  normalized = true
): Array<AgentMessage> => {
  const system = pyStrip(ephemeralSystemPrompt ? `${CORE_SYSTEM_PROMPT_STANDIN}\n\n${ephemeralSystemPrompt}` : CORE_SYSTEM_PROMPT_STANDIN)
  const sanitized = sanitizeApiMessages([{ role: "system", content: system }, ...transcript.map(apiCopy)])
  if (!normalized) return sanitized
  const sent = sanitized.map((m) => {
    const out: AgentMessage = { ...m }
    if (typeof out["content"] === "string") out["content"] = pyStrip(out["content"])
    if (toolCallsOf(out).length > 0) {
      out["tool_calls"] = toolCallsOf(out).map((tc) =>
        isDictLike(tc) && isDictLike(tc["function"]) ? { ...tc, function: { ...tc["function"], arguments: compactArguments(tc["function"]["arguments"]) } } : tc
      )
    }
    return out
  })
  return imagesAsText(sent)
}

/** A caller's `instructions` / system prompt as an agent turn's input field: only a string is one. */
export const ephemeralSystemPromptOf = (value: unknown): { readonly ephemeralSystemPrompt?: string } =>
  typeof value === "string" ? { ephemeralSystemPrompt: value } : {}
