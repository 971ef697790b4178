/**
 * The todo list a new agent starts from (agent/tools/TodoHydration.ts): Hermes rebuilds it from the
 * most recent todo result in the conversation history that answers an assistant todo call.
 * Recorded: scenarios/tools/tools-todo-caps-merges-and-history.json.
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { hydrateTodoList } from "../../../src/agent/tools/TodoHydration.js"
import { callTodo, TodoList } from "../../../src/agent/tools/TodoList.js"
import { openClients } from "../../support.js"

const call = (id: string, name = "todo") => ({ id, call_id: id, type: "function", function: { name, arguments: "{}" } })
const result = (id: string, ids: ReadonlyArray<string>) => ({
  role: "tool",
  tool_call_id: id,
  content: JSON.stringify({ todos: ids.map((i) => ({ id: i, content: `c ${i}`, status: "in_progress" })), summary: {} })
})
const idsOf = (list: TodoList) =>
  (JSON.parse(Either.getOrThrow(callTodo(list, {}))) as { todos: Array<{ id: string }> }).todos.map((t) => t.id)
const hydrated = (history: ReadonlyArray<Record<string, unknown>>) => {
  const list = new TodoList()
  hydrateTodoList(list, history)
  return idsOf(list)
}

describe("hydrateTodoList", () => {
  it("replays the most recent todo result paired with an assistant todo call, written as a replace", () => {
    expect(hydrated([
      { role: "user", content: "u" },
      { role: "assistant", content: "", tool_calls: [call("c1")] },
      result("c1", ["old"]),
      { role: "assistant", content: "", tool_calls: [call("c2"), call("c3", "terminal")] },
      result("c2", ["a", "b", "a"]),
      result("c3", ["from a terminal call"])
    ])).toEqual(["b", "a"])
  })

  it("skips results with no paired todo call: bare, after a user message, another tool's, no id", () => {
    expect(hydrated([{ role: "user", content: "u" }, result("c1", ["bare"])])).toEqual([])
    expect(hydrated([{ role: "assistant", content: "", tool_calls: [call("c1")] }, { role: "user", content: "u" }, result("c1", ["x"])])).toEqual([])
    expect(hydrated([{ role: "assistant", content: "", tool_calls: [call("c1", "terminal")] }, result("c1", ["x"])])).toEqual([])
    expect(hydrated([{ role: "assistant", content: "", tool_calls: [call("c1")] }, { ...result("c1", ["x"]), tool_call_id: "" }])).toEqual([])
    // the call's id is read stripped, the result's as it is
    expect(hydrated([{ role: "assistant", content: "", tool_calls: [call(" c1 ")] }, result("c1", ["padded"])])).toEqual(["padded"])
  })

  it("passes over results that are not a todo list and goes on looking further back", () => {
    const history = [
      { role: "assistant", content: "", tool_calls: [call("c1")] },
      result("c1", ["kept"]),
      { role: "assistant", content: "", tool_calls: [call("c2"), call("c3"), call("c4"), call("c5")] },
      { role: "tool", tool_call_id: "c2", content: '{"todos": "not a list"}' },
      { role: "tool", tool_call_id: "c3", content: '{"\\u0074odos": [{"id": "escaped key"}]}' },
      { role: "tool", tool_call_id: "c4", content: 'not json "todos"' },
      { role: "tool", tool_call_id: "c5", content: '["todos"]' }
    ]
    expect(hydrated(history)).toEqual(["kept"])
  })

  it("takes an empty list as found, and then writes nothing", () => {
    const list = new TodoList()
    callTodo(list, { todos: [{ id: "before" }] })
    hydrateTodoList(list, [{ role: "assistant", content: "", tool_calls: [call("c1")] }, result("c1", [])])
    expect(idsOf(list)).toEqual(["before"])
  })
})

const open = openClients()

describe("a session chat turn", () => {
  it("starts from the list the session's last todo result holds", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["todo"] })
    await c.json("POST", "/api/sessions", { id: "hyd" })
    const write = { id: "call_w", name: "todo", arguments: { todos: [{ id: "1", content: "first" }] } }
    const merge = { id: "call_m", name: "todo", arguments: { merge: true, todos: [{ id: "2", content: "second" }] } }
    await c.script({ turns: [{ replies: [{ toolCalls: [write] }, { text: "written" }] }, { replies: [{ toolCalls: [merge] }, { text: "merged" }] }] })
    await c.json("POST", "/api/sessions/hyd/chat", { message: "write" })
    await c.json("POST", "/api/sessions/hyd/chat", { message: "merge" })
    const messages = (await c.json<{ data: Array<{ role: string; content: string }> }>("GET", "/api/sessions/hyd/messages")).body.data
    const last = messages.filter((m) => m.role === "tool").at(-1)
    expect((JSON.parse(last?.content ?? "{}") as { todos: Array<{ id: string }> }).todos.map((t) => t.id)).toEqual(["1", "2"])
  })
})
