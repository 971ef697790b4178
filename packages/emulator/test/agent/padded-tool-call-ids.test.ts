/**
 * A tool call id the model pads with spaces (packages/diff/scenarios/tools/model-calls-padded-tool-call-id.json,
 * seen on the real 0.19.0 gateway): Hermes stores the stripped id on the assistant's tool call but answers
 * with the raw id, so the repair before the next model call drops that result as orphaned and the
 * pre-call sanitizer stubs the call's missing result; the next turn merges the two assistant messages
 * left back to back.
 */
import { describe, expect, it } from "vitest"
import { CORE_SYSTEM_PROMPT_STANDIN, MISSING_RESULT_STUB } from "../../src/agent/ApiMessages.js"
import { ADMIN_HEADERS, type Client, openClients } from "../support.js"

const open = openClients()

type Call = { messages: Array<Record<string, unknown>> }

const modelCalls = async (c: Client): Promise<Array<Call>> => {
  const res = await fetch(`${c.emu.url}/__admin/model-calls`, { headers: { "x-hermetic-namespace": "default", ...ADMIN_HEADERS } })
  return ((await res.json()) as { calls: Array<Call> }).calls
}

const padded = { id: " call_pad ", name: "todo", arguments: { todos: [{ id: "1", content: "padded", status: "pending" }] } }
const sentCall = { id: "call_pad", type: "function", function: { name: "todo", arguments: '{"todos":[{"content":"padded","id":"1","status":"pending"}]}' } }
const stub = { role: "tool", name: "todo", content: MISSING_RESULT_STUB, tool_call_id: "call_pad" }

describe("a padded tool call id", () => {
  it("is stored stripped, its raw-id result dropped by the repair and stubbed, and the next turn merges the assistant messages", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["todo"] })
    await c.script({ turns: [{ replies: [{ text: "listing", toolCalls: [padded] }, { text: "after" }] }, { replies: [{ text: "continued" }] }] })
    const a = await c.json<{ id: string; output: Array<Record<string, unknown>> }>("POST", "/v1/responses", { model: "hermes-agent", input: "make one" })
    expect(a.body.output.map((item) => [item["type"], item["call_id"]])).toEqual([["function_call", "call_pad"], ["message", undefined]])
    await c.json("POST", "/v1/responses", { model: "hermes-agent", input: "and now", previous_response_id: a.body.id })
    const calls = await modelCalls(c)
    const system = { role: "system", content: CORE_SYSTEM_PROMPT_STANDIN }
    expect(calls[1]?.messages).toEqual([system, { role: "user", content: "make one" }, { role: "assistant", content: "listing", tool_calls: [sentCall] }, stub])
    // the stored chain holds the user message twice (the gateway found no turn start in the
    // repaired transcript): the repair merges the two, as live
    expect(calls[2]?.messages).toEqual([
      system,
      { role: "user", content: "make one\n\nmake one" },
      { role: "assistant", content: "listing\nafter", tool_calls: [sentCall] },
      stub,
      { role: "user", content: "and now" }
    ])
  })
})
