/**
 * Hermes 0.19.0's `coerce_tool_args` before a registry tool runs. Expected values are what the
 * pinned model_tools.coerce_tool_args returned for the same arguments and terminal's schema (run in
 * the 0.19.0 venv); the terminal case is seen live
 * (packages/diff/scenarios/tools/terminal-string-arguments-coerced-to-schema-types.json).
 */
import { describe, expect, it } from "vitest"
import { coerceToolArguments } from "../../../src/agent/tools/ToolArgumentCoercion.js"
import { PyInt } from "../../../src/python/index.js"
import { openClients } from "../../support.js"

const open = openClients()

const REFUSAL = '{"error": "Foreground timeout 601s exceeds the maximum of 600s. Use background=true with notify_on_complete=true for long-running commands."}'

const terminal = (args: Record<string, unknown>) => coerceToolArguments("terminal", args)

describe("terminal arguments coerced to TERMINAL_SCHEMA", () => {
  it("reads integer and boolean strings as Python's float()/int() and str.strip().lower() do", () => {
    expect(terminal({ command: "echo a", timeout: "601" })).toEqual({ command: "echo a", timeout: 601 })
    expect(terminal({ command: "echo a", timeout: " 601.0 ", background: "FALSE", pty: " True " }))
      .toEqual({ command: "echo a", timeout: 601, background: false, pty: true })
    expect(terminal({ command: "echo a", timeout: "-0" })).toEqual({ command: "echo a", timeout: 0 })
    expect(terminal({ command: "echo a", timeout: "1e20" })).toEqual({ command: "echo a", timeout: new PyInt(100000000000000000000n) })
    expect(terminal({ command: "echo a", timeout: "1e3", notify_on_complete: "false" })).toEqual({ command: "echo a", timeout: 1000, notify_on_complete: false })
  })

  it("keeps what does not read as the wanted type: a fraction for an integer, inf, nan, yes", () => {
    for (const timeout of ["600.5", "inf", "nan", "1e400", "0x10", "abc"]) {
      expect(terminal({ command: "echo a", timeout, background: "yes" })).toEqual({ command: "echo a", timeout, background: "yes" })
    }
  })

  it("leaves values that are not strings, and keys the schema does not declare, as they are", () => {
    expect(terminal({ command: 5, timeout: 601.5, background: 1 })).toEqual({ command: 5, timeout: 601.5, background: 1 })
    expect(terminal({ command: "x", unknown: "5", toString: "5" })).toEqual({ command: "x", unknown: "5", toString: "5" })
  })

  it("changes the arguments in place, as upstream mutates the dict the loop holds", () => {
    const args: Record<string, unknown> = { command: "echo a", timeout: "601" }
    expect(terminal(args)).toBe(args)
    expect(args["timeout"]).toBe(601)
  })

  it("leaves todo alone: the agent runs it with the arguments as parsed", () => {
    expect(coerceToolArguments("todo", { todos: "[]", merge: "true" })).toEqual({ todos: "[]", merge: "true" })
    expect(coerceToolArguments("process", { timeout: "5" })).toEqual({ timeout: "5" })
  })
})

describe("a terminal call whose timeout comes as a string", () => {
  it("is refused by the foreground cap once the string is read as the schema's integer", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["terminal"] })
    await c.script({ turns: [{ replies: [{ toolCalls: [
      { id: "call_str", name: "terminal", arguments: { command: "echo str", timeout: "601" } },
      { id: "call_exp", name: "terminal", arguments: { command: "echo exp", timeout: "1e3" } },
      { id: "call_bg_false", name: "terminal", arguments: { command: "echo bg", timeout: "601", background: "FALSE" } },
      { id: "call_cap", name: "terminal", arguments: { command: "echo cap", timeout: "600" } }
    ] }, { text: "done" }] }] })
    const a = await c.json<{ output: Array<Record<string, unknown>> }>("POST", "/v1/responses", { model: "hermes-agent", input: "timeouts" })
    const outputs = a.body.output.filter((item) => item["type"] === "function_call_output").map((item) => [item["call_id"], item["output"]])
    expect(outputs).toEqual([
      ["call_str", REFUSAL],
      ["call_exp", REFUSAL.replace("601s", "1000s")],
      ["call_bg_false", REFUSAL],
      ["call_cap", '{"output": "cap", "exit_code": 0, "error": null}']
    ])
    // the stored call keeps the model's text: coercion changes what the tool gets, not the transcript
    const call = a.body.output.find((item) => item["type"] === "function_call" && item["call_id"] === "call_str")
    expect(call?.["arguments"]).toBe('{"command":"echo str","timeout":"601"}')
  })
})
