import { PyFloat, PyInt } from "../python/index.js"
/**
 * The agent's transcript as Hermes holds it: a list of mutable message dicts. Identity matters —
 * Hermes' agent receives the caller's history dicts themselves (a shallow list copy), repairs the
 * list in place before each model call (merging consecutive user messages *into the earlier dict*)
 * and stamps `_db_persisted` on every dict it flushes, so the caller's own history changes under
 * it. The Responses API then compares that transcript with its history by value (Python `==`), and
 * what it stores and lists as output depends on the outcome. The emulator keeps the same objects
 * and the same mutations so those comparisons come out as upstream's do.
 */

export type AgentMessage = Record<string, unknown>

/** Marker Hermes stamps on each message it has written to its session DB. */
export const DB_PERSISTED = "_db_persisted"

const numeric = (v: unknown): number | bigint | undefined => {
  if (typeof v === "number") return v
  if (typeof v === "boolean") return v ? 1 : 0
  if (v instanceof PyFloat) return v.value
  if (v instanceof PyInt) return v.value
  return undefined
}

/** Python `==` over JSON-shaped values: dicts ignore key order, True == 1 == 1.0. */
export const pyEquals = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  const na = numeric(a)
  const nb = numeric(b)
  if (na !== undefined || nb !== undefined) {
    if (na === undefined || nb === undefined) return false
    // eslint-disable-next-line eqeqeq -- bigint vs number comparison is what Python does
    return typeof na === typeof nb ? na === nb : na == nb
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    return a.every((x, i) => pyEquals(x, b[i]))
  }
  if (typeof a === "object" && typeof b === "object" && a !== null && b !== null) {
    const ka = Object.keys(a)
    const kb = Object.keys(b)
    if (ka.length !== kb.length) return false
    const rb = b as Record<string, unknown>
    return ka.every((k) => Object.prototype.hasOwnProperty.call(rb, k) && pyEquals((a as Record<string, unknown>)[k], rb[k]))
  }
  return false
}

/** True when `list[:prefix.length]` equals `prefix` element by element. */
export const startsWith = (list: ReadonlyArray<unknown>, prefix: ReadonlyArray<unknown>): boolean =>
  list.length >= prefix.length && prefix.every((m, i) => pyEquals(list[i], m))

const toolCallIds = (m: AgentMessage): Array<string> => {
  const calls = m["tool_calls"]
  if (!Array.isArray(calls)) return []
  const ids: Array<string> = []
  for (const tc of calls as Array<unknown>) {
    if (typeof tc !== "object" || tc === null) continue
    for (const key of ["id", "call_id"]) {
      const id = (tc as Record<string, unknown>)[key]
      if (typeof id === "string" && id !== "") ids.push(id)
    }
  }
  return ids
}

const isCodexInterim = (m: AgentMessage): boolean =>
  Boolean(m["codex_reasoning_items"]) || Boolean(m["codex_message_items"]) || m["finish_reason"] === "incomplete"

/**
 * `repair_message_sequence`, run before every model call: merge consecutive assistant messages,
 * drop tool results with no matching preceding tool call, merge consecutive user messages (text
 * joined by a blank line, into the earlier dict). Rewrites `messages` in place.
 */
export const repairMessageSequence = (messages: Array<AgentMessage>): number => {
  let repairs = 0
  const collapsed: Array<AgentMessage> = []
  for (const msg of messages) {
    const prev = collapsed[collapsed.length - 1]
    if (
      prev !== undefined &&
      msg["role"] === "assistant" &&
      prev["role"] === "assistant" &&
      !isCodexInterim(msg) &&
      !isCodexInterim(prev)
    ) {
      const prevCalls = Array.isArray(prev["tool_calls"]) ? (prev["tool_calls"] as Array<unknown>) : []
      const newCalls = Array.isArray(msg["tool_calls"]) ? (msg["tool_calls"] as Array<unknown>) : []
      if (newCalls.length > 0) prev["tool_calls"] = [...prevCalls, ...newCalls]
      else if (prevCalls.length > 0) prev["tool_calls"] = prevCalls
      const a = prev["content"]
      const b = msg["content"]
      if (typeof a === "string" && typeof b === "string") {
        prev["content"] = [a.trim(), b.trim()].filter((p) => p !== "").join("\n")
      } else if ((a === null || a === undefined || a === "") && b !== null && b !== undefined) {
        prev["content"] = b
      }
      repairs++
      continue
    }
    collapsed.push(msg)
  }

  let known = new Set<string>()
  const filtered: Array<AgentMessage> = []
  for (const msg of collapsed) {
    const role = msg["role"]
    if (role === "assistant") {
      known = new Set(toolCallIds(msg))
      filtered.push(msg)
    } else if (role === "tool") {
      const id = msg["tool_call_id"]
      if (typeof id === "string" && id !== "" && known.has(id)) {
        filtered.push(msg)
        known.delete(id)
      } else repairs++
    } else {
      if (role === "user") known = new Set()
      filtered.push(msg)
    }
  }

  const merged: Array<AgentMessage> = []
  for (const msg of filtered) {
    const prev = merged[merged.length - 1]
    if (prev !== undefined && msg["role"] === "user" && prev["role"] === "user") {
      const a = "content" in prev ? prev["content"] : ""
      const b = "content" in msg ? msg["content"] : ""
      if (typeof a === "string" && typeof b === "string") {
        prev["content"] = a !== "" && b !== "" ? `${a}\n\n${b}` : a || b
        delete prev["api_content"]
        repairs++
        continue
      }
    }
    merged.push(msg)
  }
  if (repairs > 0) messages.splice(0, messages.length, ...merged)
  return repairs
}

/**
 * One session-DB flush, before it writes: the caller's history dicts (skipped by identity, as
 * already durable) get the marker; the dicts not marked yet are returned, in order, to be written.
 * They are marked only once written (`markWritten`): one state.db refuses stays unmarked, so the
 * next flush tries it again.
 */
export const unpersisted = (messages: ReadonlyArray<AgentMessage>, history: ReadonlySet<AgentMessage>): Array<AgentMessage> => {
  const fresh: Array<AgentMessage> = []
  for (const m of messages) {
    if (m[DB_PERSISTED] === true) continue
    if (history.has(m)) m[DB_PERSISTED] = true
    else fresh.push(m)
  }
  return fresh
}

/** The first `count` of a flush's messages reached state.db: they carry the marker from now on. */
export const markWritten = (fresh: ReadonlyArray<AgentMessage>, count: number): void => {
  for (let i = 0; i < count && i < fresh.length; i++) fresh[i]![DB_PERSISTED] = true
}
