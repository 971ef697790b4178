/**
 * A terminal call whose command is not a string (observed live on 0.19.0: read_terminal repaired
 * to terminal with no command, packages/diff/scenarios/tools/tools-desktop-terminal-tools-unknown-to-the-agent.json):
 * the tool refuses it first, naming the Python type, before the timeout cap or the approval guard.
 */
import { describe, expect, it } from "vitest"
import { nonStringCommandResult } from "../../../src/agent/tools/TerminalCommand.js"
import { openClients } from "../../support.js"

const open = openClients()

const refusal = (type: string) => `{"output": "", "exit_code": -1, "error": "Invalid command: expected string, got ${type}", "status": "error"}`

describe("nonStringCommandResult", () => {
  it("names the Python type of a command that is no string; a string passes", () => {
    expect(nonStringCommandResult(undefined)).toBe(refusal("NoneType"))
    expect(nonStringCommandResult(null)).toBe(refusal("NoneType"))
    expect(nonStringCommandResult(42)).toBe(refusal("int"))
    expect(nonStringCommandResult(1.5)).toBe(refusal("float"))
    expect(nonStringCommandResult(true)).toBe(refusal("bool"))
    expect(nonStringCommandResult(["echo", "x"])).toBe(refusal("list"))
    expect(nonStringCommandResult({ c: "echo" })).toBe(refusal("dict"))
    expect(nonStringCommandResult("")).toBeUndefined()
    expect(nonStringCommandResult("echo x")).toBeUndefined()
  })
})

describe("a terminal call with no string command", () => {
  it("is refused before the timeout cap is looked at", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["terminal"] })
    await c.script({ turns: [{ replies: [{ toolCalls: [
      { id: "call_none", name: "terminal", arguments: { text: "t" } },
      { id: "call_int", name: "terminal", arguments: { command: 7, timeout: 601 } }
    ] }, { text: "done" }] }] })
    const a = await c.json<{ output: Array<Record<string, unknown>> }>("POST", "/v1/responses", { model: "hermes-agent", input: "no command" })
    const outputs = a.body.output.filter((item) => item["type"] === "function_call_output").map((item) => [item["call_id"], item["output"]])
    expect(outputs).toEqual([["call_none", refusal("NoneType")], ["call_int", refusal("int")]])
  })
})
