/**
 * Tool calls the model sends with a blank id, "" or only whitespace
 * (packages/diff/scenarios/tools/model-calls-blank-tool-call-ids-*.json, seen on the real 0.19.0
 * gateway): Hermes stores each as `call_` + 12 hex digits of sha256("name:arguments:index"), while
 * the results keep the raw blank id, so the repair before the next model call drops both results
 * and the pre-call sanitizer stubs the made-up ids.
 */
import { describe, expect, it } from "vitest"
import { CORE_SYSTEM_PROMPT_STANDIN, MISSING_RESULT_STUB } from "../../src/agent/ApiMessages.js"
import { blankToolCallId } from "../../src/agent/BlankToolCallIds.js"
import { ADMIN_HEADERS, type Client, openClients } from "../support.js"

const open = openClients()

type Call = { messages: Array<Record<string, unknown>> }

const modelCalls = async (c: Client): Promise<Array<Call>> => {
  const res = await fetch(`${c.emu.url}/__admin/model-calls`, { headers: { "x-hermetic-namespace": "default", ...ADMIN_HEADERS } })
  return ((await res.json()) as { calls: Array<Call> }).calls
}

const todo = (id: string, n: string, content: string) => ({ id, name: "todo", arguments: { todos: [{ id: n, content, status: "pending" }] } })
const EMPTY_ARGS = '{"todos":[{"id":"1","content":"empty id","status":"pending"}]}'
const SPACE_ARGS = '{"todos":[{"id":"2","content":"space id","status":"pending"}]}'
// what the model is sent: the same arguments with their keys sorted
const EMPTY_SENT = '{"todos":[{"content":"empty id","id":"1","status":"pending"}]}'
const SPACE_SENT = '{"todos":[{"content":"space id","id":"2","status":"pending"}]}'
// the ids the live gateway made up for these two calls (fixtures/0.19.0/model-calls-blank-tool-call-ids-over-responses-and-runs-tools-profile.json)
const EMPTY_ID = "call_d3ede332c302"
const SPACE_ID = "call_5b360aabd798"

describe("a blank tool call id", () => {
  it("is sha256 of name, arguments and position, as Hermes hashes them", () => {
    expect(blankToolCallId("todo", EMPTY_ARGS, 0)).toBe(EMPTY_ID)
    expect(blankToolCallId("todo", SPACE_ARGS, 1)).toBe(SPACE_ID)
    expect(blankToolCallId("todo", "{}", 1)).not.toBe(blankToolCallId("todo", "{}", 0))
  })

  it("is stored made up, its raw-id result dropped by the repair and the made-up id stubbed", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["todo"] })
    await c.script({ turns: [{ replies: [{ text: "two", toolCalls: [todo("", "1", "empty id"), todo("  ", "2", "space id")] }, { text: "after" }] }] })
    const a = await c.json<{ output: Array<Record<string, unknown>> }>("POST", "/v1/responses", { model: "hermes-agent", input: "blank ids" })
    const ids = [EMPTY_ID, SPACE_ID]
    expect(a.body.output.map((item) => [item["type"], item["call_id"]])).toEqual([["function_call", ids[0]], ["function_call", ids[1]], ["message", undefined]])
    const calls = await modelCalls(c)
    const sent = (id: string | undefined, args: string) => ({ id, type: "function", function: { name: "todo", arguments: args } })
    const stub = (id: string | undefined) => ({ role: "tool", name: "todo", content: MISSING_RESULT_STUB, tool_call_id: id })
    expect(calls[1]?.messages).toEqual([
      { role: "system", content: CORE_SYSTEM_PROMPT_STANDIN },
      { role: "user", content: "blank ids" },
      { role: "assistant", content: "two", tool_calls: [sent(ids[0], EMPTY_SENT), sent(ids[1], SPACE_SENT)] },
      stub(ids[0]),
      stub(ids[1])
    ])
  })
})
