/**
 * What a `modelCalls` step compares: the model calls a target made, seen the same way on both
 * sides. The real gateway's calls come from the fake model (the chat-completions messages Hermes
 * sent), the emulator's from its scripted model (the API messages its agent loop builds); both
 * reach this view as ReceivedCalls, so the comparison is of behaviour, not of bookkeeping:
 *
 *   - every call, in order, with its kind ("main" or the housekeeping task);
 *   - every message, in order: its role, its content (a string, or the content parts as sent);
 *   - tool calls by type, function name and arguments, their ids replaced by `call#n` in order of
 *     first appearance, so a tool result names the call it answers without the id itself;
 *   - a tool result by the call it answers (`call#n`, or `unknown#n` for an id no call has), its
 *     name and content;
 *   - any other field of a message as it is (a field only one side sends is a difference);
 *   - a system message as the part the caller contributed: Hermes' own prompt (identity, platform
 *     hints, the "Conversation started: <date>" block with model and provider) is neither the
 *     caller's nor emulated, so only what follows that block — the ephemeral system prompt Hermes
 *     appends after a blank line — is compared, with whether the block was there.
 */
import type { ReceivedCall } from "@hermetic/script"
import type { JsonValue } from "../json/JsonValue.js"

/** The last line block of Hermes' own system prompt starts with this (agent/system_prompt.py). */
export const CORE_PROMPT_END_MARKER = "Conversation started: "

type Json = { [key: string]: JsonValue }

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

/** A value as JSON: what JSON cannot hold (undefined) becomes null. */
const asJson = (v: unknown): JsonValue => (v === undefined ? null : (JSON.parse(JSON.stringify(v)) as JsonValue))

/** The caller's part of a system prompt: what follows the block that ends Hermes' own prompt. */
export const systemView = (content: unknown): Json => {
  if (typeof content !== "string") return { hermesCore: false, content: asJson(content) }
  const marker = content.indexOf(CORE_PROMPT_END_MARKER)
  if (marker < 0) return { hermesCore: false, content }
  const gap = content.indexOf("\n\n", marker)
  return { hermesCore: true, caller: gap < 0 ? "" : content.slice(gap + 2) }
}

/** Names tool-call ids by order of first appearance, over all the calls of one view. */
class CallRefs {
  private readonly refs = new Map<string, string>()
  private unknown = 0

  ofCall(id: unknown): string {
    const key = typeof id === "string" ? id : JSON.stringify(id ?? null)
    let ref = this.refs.get(key)
    if (ref === undefined) {
      ref = `call#${this.refs.size + 1}`
      this.refs.set(key, ref)
    }
    return ref
  }

  ofResult(id: unknown): string {
    const key = typeof id === "string" ? id : JSON.stringify(id ?? null)
    return this.refs.get(key) ?? `unknown#${++this.unknown}`
  }
}

const KNOWN_KEYS: ReadonlySet<string> = new Set(["role", "content", "tool_calls", "tool_call_id"])

const toolCallView = (tc: unknown, refs: CallRefs): JsonValue => {
  if (!isRecord(tc)) return { malformed: asJson(tc) }
  const { id, function: fn, ...rest } = tc
  const view: Json = { ref: refs.ofCall(id) }
  if (isRecord(fn)) {
    const { name, arguments: args, ...fnRest } = fn
    view["name"] = asJson(name)
    view["arguments"] = asJson(args)
    if (Object.keys(fnRest).length > 0) view["functionOther"] = asJson(fnRest)
  } else view["function"] = asJson(fn)
  for (const [k, v] of Object.entries(rest)) view[k] = asJson(v)
  return view
}

const messageView = (m: unknown, refs: CallRefs): JsonValue => {
  if (!isRecord(m)) return { malformed: asJson(m) }
  const role = m["role"]
  const view: Json = { role: asJson(role) }
  if (role === "system") Object.assign(view, systemView(m["content"]))
  else if ("content" in m) view["content"] = asJson(m["content"])
  if ("tool_calls" in m) view["toolCalls"] = Array.isArray(m["tool_calls"]) ? m["tool_calls"].map((tc) => toolCallView(tc, refs)) : asJson(m["tool_calls"])
  if ("tool_call_id" in m) view["answers"] = refs.ofResult(m["tool_call_id"])
  const other = Object.keys(m).filter((k) => !KNOWN_KEYS.has(k)).sort()
  for (const k of other) view[k] = asJson(m[k])
  return view
}

/** The view of a target's model calls: what the synthetic exchange's body holds. */
export const modelCallView = (calls: ReadonlyArray<ReceivedCall>): JsonValue => {
  const refs = new CallRefs()
  return {
    calls: calls.map((call) => ({ kind: call.kind, messages: call.messages.map((m) => messageView(m, refs)) }))
  }
}

/** The path the synthetic exchange is recorded under (the control-plane route both targets answer). */
export const MODEL_CALLS_PATH = "/__admin/model-calls"
