/**
 * A foreground terminal call whose timeout is over Hermes 0.19.0's 600 s cap
 * (packages/diff/scenarios/tools/terminal-foreground-timeout-over-the-cap.json, seen live): the tool
 * refuses it before running, with a result that holds only the error, which is no failure for a
 * terminal (no exit code). At the cap the command runs; a background command is not refused.
 */
import { describe, expect, it } from "vitest"
import { toolResultFailed } from "../../../src/agent/tools/ToolFailure.js"
import { openClients } from "../../support.js"

const open = openClients()

const REFUSAL = '{"error": "Foreground timeout 601s exceeds the maximum of 600s. Use background=true with notify_on_complete=true for long-running commands."}'

const terminal = (id: string, args: Record<string, unknown> | string) => ({ id, name: "terminal", arguments: args })

describe("a terminal timeout over the foreground cap", () => {
  it("is refused before the command runs; at the cap it runs, in the background it is not refused", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["terminal"] })
    await c.script({ turns: [{ replies: [{ toolCalls: [
      terminal("call_cap", { command: "echo capped", timeout: 600 }),
      terminal("call_over", { command: "echo over", timeout: 601 }),
      terminal("call_float", { command: "echo float", timeout: 600.5 }),
      terminal("call_bg", { command: "echo bg", timeout: 601, background: true }),
      // as argument text: an integral float (Python's float, named 601.0) and an int past 2^53
      terminal("call_float_over", '{"command": "echo f", "timeout": 601.0}'),
      terminal("call_float_cap", '{"command": "echo floatcap", "timeout": 600.0}'),
      terminal("call_huge", '{"command": "echo huge", "timeout": 100000000000000000000}')
    ] }, { text: "done" }] }] })
    const a = await c.json<{ output: Array<Record<string, unknown>> }>("POST", "/v1/responses", { model: "hermes-agent", input: "timeouts" })
    const outputs = a.body.output.filter((item) => item["type"] === "function_call_output").map((item) => [item["call_id"], item["output"]])
    expect(outputs).toEqual([
      ["call_cap", '{"output": "capped", "exit_code": 0, "error": null}'],
      ["call_over", REFUSAL],
      ["call_float", REFUSAL.replace("601s", "600.5s")],
      // a background command is not refused (what it then does, the emulator does not model)
      ["call_bg", expect.not.stringContaining("Foreground timeout")],
      ["call_float_over", REFUSAL.replace("601s", "601.0s")],
      ["call_float_cap", '{"output": "floatcap", "exit_code": 0, "error": null}'],
      ["call_huge", REFUSAL.replace("601s", "100000000000000000000s")]
    ])
  })

  it("is no failure: a terminal result without an exit code", () => {
    expect(toolResultFailed("terminal", REFUSAL)).toBe(false)
  })
})
