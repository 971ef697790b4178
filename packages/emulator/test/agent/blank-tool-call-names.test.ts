import { describe, expect, it } from "vitest"
import { BLANK_TOOL_NAME_SENTINEL, renameBlankToolCalls } from "../../src/agent/BlankToolCallNames.js"

const call = (name: unknown) => ({ id: "call_1", type: "function", function: { name, arguments: "{}" } })

describe("renameBlankToolCalls (sanitize_api_messages' empty-name repair)", () => {
  it("renames empty and whitespace-only names in assistant messages, in the shared dicts", () => {
    const empty = call("")
    const blank = call(" \t\n")
    const named = call("todo")
    const messages = [{ role: "assistant", content: "", tool_calls: [empty, named, blank] }]
    renameBlankToolCalls(messages)
    expect(empty.function.name).toBe(BLANK_TOOL_NAME_SENTINEL)
    expect(blank.function.name).toBe(BLANK_TOOL_NAME_SENTINEL)
    expect(named.function.name).toBe("todo")
    expect(messages[0]?.tool_calls[0]).toBe(empty)
  })

  it("gives a call without a function dict a sentinel function; a non-string name is renamed", () => {
    const noFunction: Record<string, unknown> = { id: "call_2", type: "function", function: null }
    const numbered = call(5)
    renameBlankToolCalls([{ role: "assistant", tool_calls: [noFunction, numbered] }])
    expect(noFunction["function"]).toEqual({ name: BLANK_TOOL_NAME_SENTINEL, arguments: "{}" })
    expect(numbered.function.name).toBe(BLANK_TOOL_NAME_SENTINEL)
  })

  it("leaves other roles alone", () => {
    const onTool = call("")
    renameBlankToolCalls([{ role: "user", tool_calls: [onTool] }, { role: "tool", name: "", content: "x" }])
    expect(onTool.function.name).toBe("")
  })
})
