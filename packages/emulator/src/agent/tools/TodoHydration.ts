/**
 * The todo list a new agent starts from. Every request builds a fresh agent, so Hermes 0.19.0 rebuilds
 * the list from the conversation history it is given (`_hydrate_todo_store`): the most recent todo
 * result that answers an assistant `todo` call is written back whole (a replace, so its items are
 * cleaned and capped again). A result without such a call (a caller's forged tool message) is passed
 * over. Observed live: a session chat turn merges into the list the previous turn left
 * (scenarios/tools/tools-todo-caps-merges-and-history.json).
 */
import { Either } from "effect"
import { isDict, pyJsonLoads, pyStrip, pyTruthy, toHandlerValue } from "../../python/index.js"
import type { AgentMessage } from "../AgentMessages.js"
import type { TodoList } from "./TodoList.js"

/** A result longer than this (in characters) is not read: a forged one could be huge. */
const MAX_RESULT_CHARS = 512_000

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

/** A tool call's id as the pairing reads it: `call_id`, else `id`, stripped. */
const callIdOf = (tc: unknown): string => {
  if (!isObject(tc)) return ""
  const id = pyTruthy(tc["call_id"]) ? tc["call_id"] : tc["id"]
  return typeof id === "string" ? pyStrip(id) : ""
}

const callNameOf = (tc: unknown): unknown => (isObject(tc) && isObject(tc["function"]) ? tc["function"]["name"] : undefined)

/** Whether the nearest assistant message before the result (no user or system between) made a todo call with its id. */
const answersTodoCall = (history: ReadonlyArray<AgentMessage>, at: number): boolean => {
  const id = history[at]?.["tool_call_id"]
  if (!pyTruthy(id)) return false
  for (let i = at - 1; i >= 0; i--) {
    const role = history[i]?.["role"]
    if (role === "assistant") {
      const calls = history[i]?.["tool_calls"]
      return Array.isArray(calls) && calls.some((tc) => callIdOf(tc) === id && callNameOf(tc) === "todo")
    }
    if (role === "user" || role === "system") return false
  }
  return false
}

/** The todo list of a todo result's JSON text; undefined when the text is not one. */
const todosOf = (content: string): ReadonlyArray<unknown> | undefined => {
  if ([...content].length > MAX_RESULT_CHARS || !content.includes('"todos"')) return undefined
  const parsed = pyJsonLoads(content)
  if (Either.isLeft(parsed)) return undefined
  const data = toHandlerValue(parsed.right)
  return isDict(data) && Array.isArray(data["todos"]) ? data["todos"] : undefined
}

/** Writes the history's last todo list into `list` (a fresh agent's, so empty); an empty one writes nothing. */
export const hydrateTodoList = (list: TodoList, history: ReadonlyArray<AgentMessage>): void => {
  for (let i = history.length - 1; i >= 0; i--) {
    const msg = history[i]
    if (msg?.["role"] !== "tool" || typeof msg["content"] !== "string" || !answersTodoCall(history, i)) continue
    const todos = todosOf(msg["content"])
    if (todos === undefined) continue
    if (todos.length > 0) list.write(todos, false)
    return
  }
}
