import { describe, expect, it } from "vitest"
import { toolResultFailed } from "../../../src/agent/tools/ToolFailure.js"
import { ToolLoopGuardrails } from "../../../src/agent/tools/ToolLoopGuardrails.js"
import { previewRaises, toolLabel, toolPreview } from "../../../src/agent/tools/ToolProgress.js"

describe("toolResultFailed (_detect_tool_failure)", () => {
  it("a terminal fails on a non-zero exit code only", () => {
    expect(toolResultFailed("terminal", "{\"output\": \"\", \"exit_code\": -1, \"error\": \"\"}")).toBe(true)
    expect(toolResultFailed("terminal", "{\"output\": \"error\", \"exit_code\": 0, \"error\": null}")).toBe(false)
    expect(toolResultFailed("terminal", "{\"output\": \"x\", \"exit_code\": 0.0}")).toBe(false)
    expect(toolResultFailed("terminal", "{\"output\": \"x\", \"exit_code\": null}")).toBe(false)
    expect(toolResultFailed("terminal", "{\"output\": \"x\", \"exit_code\": \"0\"}")).toBe(true)
  })

  it("another tool fails on a truthy error, on a message beside success false, or on the quoted words", () => {
    expect(toolResultFailed("todo", "{\"error\": \"todos must be a list, got float\"}")).toBe(true)
    expect(toolResultFailed("todo", "{\"message\": \"m\", \"success\": false}")).toBe(true)
    expect(toolResultFailed("todo", "{\"message\": \"m\", \"success\": true}")).toBe(false)
    expect(toolResultFailed("todo", "{\"todos\": [{\"id\": \"error\"}]}")).toBe(true)
    expect(toolResultFailed("todo", "{\"todos\": [{\"id\": \"FAILED\"}]}")).toBe(true)
    expect(toolResultFailed("todo", "{\"todos\": [{\"id\": \"\\\"Failed\\\"\"}]}")).toBe(false)
    expect(toolResultFailed("todo", "[\"Failed\"]")).toBe(true)
    expect(toolResultFailed("todo", "Error: boom")).toBe(true)
    expect(toolResultFailed("todo", "error: boom")).toBe(false)
    expect(toolResultFailed("todo", "{\"success\": true, \"emulated\": true}")).toBe(false)
  })

  it("looks for the quoted words in the first 500 characters only", () => {
    expect(toolResultFailed("todo", "x".repeat(494) + "\"error\"")).toBe(false)
    expect(toolResultFailed("todo", "x".repeat(493) + "\"error\"")).toBe(true)
  })
})

describe("ToolLoopGuardrails (warnings on, hard stops off)", () => {
  const error = "{\"error\": \"e\"}"
  it("warns on the second failure with identical arguments, with its count", () => {
    const g = new ToolLoopGuardrails()
    expect(g.observe("todo", { todos: "oops" }, error, true)).toBe(error)
    expect(g.observe("todo", { todos: "oops" }, error, true)).toBe(
      error + "\n\n[Tool loop warning: repeated_exact_failure_warning; count=2; todo has failed 2 times with identical arguments. This looks like a loop; inspect the error and change strategy instead of retrying it unchanged.]"
    )
  })

  it("warns from the third failure of one tool; a success clears the tool's count but not other arguments' counts", () => {
    const g = new ToolLoopGuardrails()
    g.observe("todo", { todos: 1 }, error, true)
    g.observe("todo", { todos: 2 }, error, true)
    expect(g.observe("todo", { todos: 3 }, error, true)).toContain("[Tool loop warning: same_tool_failure_warning; count=3; todo has failed 3 times this turn.")
    expect(g.observe("todo", {}, "{}", false)).toBe("{}")
    expect(g.observe("todo", { todos: 4 }, error, true)).toBe(error)
    expect(g.observe("todo", { todos: 1 }, error, true)).toContain("repeated_exact_failure_warning; count=2;")
  })

  it("tells 1 from 1.0 and ignores key order", () => {
    const g = new ToolLoopGuardrails()
    g.observe("todo", { a: 1, b: 2 }, error, true)
    expect(g.observe("todo", { b: 2, a: 1 }, error, true)).toContain("repeated_exact_failure_warning")
    expect(g.observe("terminal", { a: 1, b: 2 }, error, true)).toBe(error)
  })
})

describe("the todo label (build_tool_preview) with Python len() and truthiness", () => {
  it("counts a string's characters and a dict's keys; merge 1 is updating", () => {
    expect(toolLabel("todo", "{\"todos\": \"oops\"}")).toBe("planning 4 task(s)")
    expect(toolLabel("todo", "{\"todos\": {\"a\": 1, \"b\": 2}}")).toBe("planning 2 task(s)")
    expect(toolLabel("todo", "{\"todos\": [1], \"merge\": 1}")).toBe("updating 1 task(s)")
    expect(toolLabel("todo", "{\"todos\": [1], \"merge\": \"\"}")).toBe("planning 1 task(s)")
    expect(toolPreview({ name: "todo", arguments: "{}" })).toBeNull()
  })

  it("raises for a todos without len(): no started event", () => {
    expect(previewRaises({ name: "todo", arguments: "{\"todos\": 1.5}" })).toBe(true)
    expect(previewRaises({ name: "todo", arguments: "{\"todos\": true}" })).toBe(true)
    expect(previewRaises({ name: "todo", arguments: "{\"todos\": \"x\"}" })).toBe(false)
    expect(previewRaises({ name: "todo", arguments: "{\"todos\": null}" })).toBe(false)
    expect(previewRaises({ name: "terminal", arguments: "{\"todos\": 1.5}" })).toBe(false)
  })
})

describe("a label's whitespace collapse (_oneline: Python's str.split())", () => {
  it("collapses runs of whitespace to one space and trims both ends", () => {
    expect(toolLabel("terminal", JSON.stringify({ command: "   \techo  hermetic\t\tpreview    label   \n" }))).toBe("echo hermetic preview label")
  })

  it("splits on Python's whitespace: the separators \\x1c-\\x1f and U+0085 are spaces, U+FEFF is not", () => {
    expect(toolLabel("terminal", JSON.stringify({ command: "echo\u001c\u001cdelete from t2\u001f" }))).toBe("echo delete from t2")
    expect(toolLabel("terminal", JSON.stringify({ command: "echo\u0085a" }))).toBe("echo a")
    expect(toolLabel("terminal", JSON.stringify({ command: "echo\ufeffa \ufeff" }))).toBe("echo\ufeffa \ufeff")
  })
})
