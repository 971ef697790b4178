/** The per-call copy of the transcript (ApiMessages.ts), against the 0.19.0 source's steps. */
import { describe, expect, it } from "vitest"
import { apiMessages, CORE_SYSTEM_PROMPT_STANDIN, ephemeralSystemPromptOf, MISSING_RESULT_STUB, sanitizeApiMessages } from "../../src/agent/ApiMessages.js"

const call = (id: string, name = "t", args = "{}") => ({ id, call_id: id, response_item_id: `fc_${id}`, type: "function", function: { name, arguments: args } })

describe("apiMessages", () => {
  it("puts Hermes' prompt first, the ephemeral prompt after a blank line; an empty one adds nothing", () => {
    expect(apiMessages([], "  extra  ")[0]).toEqual({ role: "system", content: `${CORE_SYSTEM_PROMPT_STANDIN}\n\n  extra` })
    expect(apiMessages([], "")[0]).toEqual({ role: "system", content: CORE_SYSTEM_PROMPT_STANDIN })
    expect(apiMessages([], undefined)).toHaveLength(1)
  })

  it("drops bookkeeping, reasoning, finish_reason, transport-foreign fields and Codex tool-call ids; replays api_content", () => {
    const transcript = [
      { role: "user", content: "stored", api_content: "sent", timestamp: 1.5, _db_persisted: true },
      { role: "assistant", content: " a ", reasoning: "r", reasoning_content: "r", finish_reason: "tool_calls", tool_calls: [call("c1")] },
      { role: "tool", name: "t", tool_name: "t", tool_call_id: "c1", content: " result " }
    ]
    expect(apiMessages(transcript, undefined).slice(1)).toEqual([
      { role: "user", content: "sent" },
      { role: "assistant", content: "a", tool_calls: [{ id: "c1", type: "function", function: { name: "t", arguments: "{}" } }] },
      { role: "tool", name: "t", tool_call_id: "c1", content: "result" }
    ])
    // the transcript itself is untouched
    expect(transcript[0]).toMatchObject({ api_content: "sent", _db_persisted: true })
    expect(transcript[1]?.["tool_calls"]).toEqual([call("c1")])
  })

  it("an empty api_content, or one on a tool message, is not replayed", () => {
    expect(apiMessages([{ role: "user", content: "kept", api_content: "" }, { role: "tool", tool_call_id: "x", content: "c", api_content: "no" }], undefined).slice(1)).toEqual([
      { role: "user", content: "kept" }
    ])
  })

  it("re-dumps tool-call arguments compact with sorted keys (ensure_ascii), repairs unparsable ones", () => {
    const args = ['{"z": 1, "b": "\u00e9"}', "not json", "   ", '{"a": [1, ],}']
    const out = apiMessages([{ role: "assistant", content: "", tool_calls: args.map((a, i) => call(`c${i}`, "t", a)) }], undefined)
    const calls = out[1]?.["tool_calls"] as Array<{ function: { arguments: string } }>
    // a blank text an unknown-tool round stored as it came reaches the model as {} (tools-argument-repair-edges)
    expect(calls.map((c) => c.function.arguments)).toEqual(['{"b":"\\u00e9","z":1}', "{}", "{}", '{"a": [1]}'])
  })

  it("keeps a non-string content as it is", () => {
    const parts = [{ type: "text", text: " x " }]
    expect(apiMessages([{ role: "user", content: parts }], undefined)[1]).toEqual({ role: "user", content: parts })
  })
})

describe("sanitizeApiMessages", () => {
  it("drops roles the API refuses and empty or non-list tool_calls", () => {
    expect(sanitizeApiMessages([{ role: "odd", content: "x" }, { role: "assistant", content: "a", tool_calls: [] }, { role: "assistant", content: "b", tool_calls: null }, { role: "developer", content: "d" }]))
      .toEqual([{ role: "assistant", content: "a" }, { role: "assistant", content: "b" }, { role: "developer", content: "d" }])
  })

  it("drops orphaned results and stubs missing ones right after their call", () => {
    const out = sanitizeApiMessages([
      { role: "tool", tool_call_id: "ghost", content: "orphan" },
      { role: "assistant", content: "", tool_calls: [call("c1", "one"), call("c2", "two")] },
      { role: "tool", tool_call_id: " c2 ", content: "two done" },
      { role: "user", content: "next" }
    ])
    expect(out).toEqual([
      { role: "assistant", content: "", tool_calls: [call("c1", "one"), call("c2", "two")] },
      { role: "tool", name: "one", content: MISSING_RESULT_STUB, tool_call_id: "c1" },
      { role: "tool", tool_call_id: " c2 ", content: "two done" },
      { role: "user", content: "next" }
    ])
  })

  it("drops a repeated tool-call id and a repeated result", () => {
    const out = sanitizeApiMessages([
      { role: "assistant", content: "", tool_calls: [call("c1"), call("c1")] },
      { role: "tool", tool_call_id: "c1", content: "first" },
      { role: "tool", tool_call_id: "c1", content: "again" },
      { role: "assistant", content: "", tool_calls: [call("c1"), call("c3")] },
      { role: "tool", tool_call_id: "c3", content: "three" }
    ])
    expect(out).toEqual([
      { role: "assistant", content: "", tool_calls: [call("c1")] },
      { role: "tool", tool_call_id: "c1", content: "first" },
      { role: "assistant", content: "", tool_calls: [call("c3")] },
      { role: "tool", tool_call_id: "c3", content: "three" }
    ])
  })

  it("leaves a clean list as it is", () => {
    const clean = [{ role: "user", content: "u" }, { role: "assistant", content: "", tool_calls: [call("c1")] }, { role: "tool", tool_call_id: "c1", content: "r" }]
    expect(sanitizeApiMessages(clean)).toEqual(clean)
  })
})

describe("ephemeralSystemPromptOf", () => {
  it("takes a string only", () => {
    expect(ephemeralSystemPromptOf("x")).toEqual({ ephemeralSystemPrompt: "x" })
    expect(ephemeralSystemPromptOf(5)).toEqual({})
    expect(ephemeralSystemPromptOf(null)).toEqual({})
  })
})
