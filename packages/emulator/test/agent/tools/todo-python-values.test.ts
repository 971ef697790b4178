import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { parseToolArguments, toolArgumentsOf } from "../../../src/agent/tools/ToolArguments.js"
import { callTodo, TodoList } from "../../../src/agent/tools/TodoList.js"
import { pyStr } from "../../../src/python/index.js"

/** The todo tool called as the agent calls it: its arguments text read first (ToolArguments.ts). */
const todo = (list: TodoList, argumentsJson: string) =>
  JSON.parse(Either.getOrThrow(callTodo(list, toolArgumentsOf(argumentsJson)))) as Record<string, unknown>

describe("todo with the values Python's json.loads makes (tools-todo-todos-not-a-list, tools-todo-item-values)", () => {
  it("reads a todos string with json.loads: a list is written, NaN is a float, other text unparseable", () => {
    const list = new TodoList()
    expect(todo(list, JSON.stringify({ todos: "[{\"id\": \"s1\", \"content\": \"c\"}]" }))["todos"]).toEqual([
      { id: "s1", content: "c", status: "pending" }
    ])
    expect(todo(list, "{\"todos\": \"NaN\"}")).toEqual({ error: "todos must be a list, got float" })
    expect(todo(list, "{\"todos\": \"1.0\"}")).toEqual({ error: "todos must be a list, got float" })
    expect(todo(list, "{\"todos\": \"not json\"}")).toEqual({ error: "todos must be a list of objects, got unparseable string" })
    expect(todo(list, "{\"todos\": {\"a\": 1}}")).toEqual({ error: "todos must be a list, got dict" })
    expect(todo(list, "{\"todos\": 1.5}")).toEqual({ error: "todos must be a list, got float" })
  })

  it("keys a non-dict item __invalid_<index>, which a dict's id can collide with", () => {
    const list = new TodoList()
    const written = todo(list, "{\"todos\": [7, {\"id\": \"__invalid_0\", \"content\": \"collides\"}, \"x\"]}")
    expect(written["todos"]).toEqual([
      { id: "__invalid_0", content: "collides", status: "pending" },
      { id: "?", content: "(invalid item)", status: "pending" }
    ])
  })

  it("writes ids and content as str() of the Python value: 2.0, a big int, inf", () => {
    const list = new TodoList()
    const written = todo(list, "{\"todos\": [{\"id\": 2.0, \"content\": 3.50, \"status\": \"COMPLETED\"}, {\"id\": 12345678901234567890, \"content\": 1e400}]}")
    expect(written["todos"]).toEqual([
      { id: "2.0", content: "3.5", status: "completed" },
      { id: "12345678901234567890", content: "inf", status: "pending" }
    ])
  })

  it("merges when merge is truthy in Python (1), replaces when falsy (\"\"); an empty dict content is falsy", () => {
    const list = new TodoList()
    todo(list, "{\"todos\": [{\"id\": \"a\", \"content\": \"first\"}]}")
    const merged = todo(list, "{\"todos\": [{\"id\": \"a\", \"content\": {}, \"status\": \"cancelled\"}, {\"id\": \"b\", \"content\": [\"x\", 1.0]}], \"merge\": 1}")
    expect(merged["todos"]).toEqual([
      { id: "a", content: "first", status: "cancelled" },
      { id: "b", content: "['x', 1.0]", status: "pending" }
    ])
    const replaced = todo(list, "{\"todos\": [{\"id\": \"c\", \"content\": \"only\"}], \"merge\": \"\"}")
    expect(replaced["todos"]).toEqual([{ id: "c", content: "only", status: "pending" }])
  })
})

describe("todo merge given an item that is not a dict (tools-todo-merge-non-dict-item)", () => {
  it("raises AttributeError at that item; the items merged before it stay merged", () => {
    const list = new TodoList()
    todo(list, "{\"todos\": [{\"id\": \"a\", \"content\": \"first\"}]}")
    const raised = callTodo(list, toolArgumentsOf("{\"todos\": [{\"id\": \"a\", \"status\": \"completed\"}, {\"id\": \"b\"}, 5.5], \"merge\": true}"))
    expect(Either.isLeft(raised) && raised.left.message).toBe("'float' object has no attribute 'get'")
    expect(todo(list, "{}")["todos"]).toEqual([
      { id: "a", content: "first", status: "completed" },
      { id: "b", content: "(no description)", status: "pending" }
    ])
  })

  it("replaces without reading items with .get: a non-dict item is an invalid item there", () => {
    const list = new TodoList()
    expect(todo(list, "{\"todos\": [5]}")["todos"]).toEqual([{ id: "?", content: "(invalid item)", status: "pending" }])
  })
})

describe("parseToolArguments (_parse_tool_arguments)", () => {
  it("runs the tool only for a JSON object; blank text is {}", () => {
    expect(parseToolArguments("[1]")._tag).toBe("NotAnObject")
    expect(parseToolArguments("NaN")._tag).toBe("NotAnObject")
    expect(parseToolArguments("null")._tag).toBe("NotAnObject")
    expect(parseToolArguments(" \n")).toEqual({ _tag: "Object", args: {} })
    expect(parseToolArguments("{\"a\": 1}")).toEqual({ _tag: "Object", args: { a: 1 } })
  })

  it("keeps what json.loads keeps and JSON.parse loses: 2.0 is a float, a big int all its digits", () => {
    const args = toolArgumentsOf("{\"f\": 2.0, \"big\": 12345678901234567890, \"inf\": 1e400}")
    expect(pyStr(args["f"])).toBe("2.0")
    expect(pyStr(args["big"])).toBe("12345678901234567890")
    expect(pyStr(args["inf"])).toBe("inf")
  })
})
