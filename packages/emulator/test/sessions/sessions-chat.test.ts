import { describe, expect, it } from "vitest"
import { openClients, readSse } from "../support.js"

const open = openClients()

const named = (frames: ReadonlyArray<string>) =>
  frames.map((f) => {
    const [event, data] = f.split("\n")
    return { event: (event ?? "").slice(7), data: JSON.parse((data ?? "").slice(6)) as Record<string, unknown> }
  })

describe.each(["0.19.0", "0.21.0"] as const)("session chat on %s (sequence observed live on 0.19.0)", (pin) => {
  it("one synchronous turn: 200 envelope, headers, and what state.db gets (the agent's model pins sessions.model)", async () => {
    const c = await open({ hermesVersion: pin })
    await c.json("POST", "/api/sessions", { id: "s-four" })
    await c.script({ turns: [{ replies: [{ text: "Chat answer", chunks: ["Chat ", "answer"], usage: { prompt_tokens: 7, completion_tokens: 2 } }] }] })
    const res = await c.request("POST", "/api/sessions/s-four/chat", { body: { message: "hello session" } })
    expect(res.status).toBe(200)
    expect(res.headers.get("x-hermes-session-id")).toBe("s-four")
    expect(await res.text()).toBe(
      '{"object": "hermes.session.chat.completion", "session_id": "s-four", "message": {"role": "assistant", "content": "Chat answer"}, "usage": {"input_tokens": 7, "output_tokens": 2, "total_tokens": 9}}'
    )
    const s = (await c.json("GET", "/api/sessions/s-four")).body["session"] as Record<string, unknown>
    expect(s).toMatchObject({
      model: "hermetic-fake-model",
      message_count: 2,
      input_tokens: 7,
      output_tokens: 2,
      estimated_cost_usd: 0,
      api_call_count: 1,
      has_system_prompt: true,
      has_model_config: true
    })
    const messages = (await c.json<{ data: Array<Record<string, unknown>> }>("GET", "/api/sessions/s-four/messages")).body.data
    expect(messages.map((m) => [m["role"], m["content"], m["finish_reason"]])).toEqual([
      ["user", "hello session", null],
      ["assistant", "Chat answer", "stop"]
    ])
    expect(Object.keys(messages[0] ?? {})).toEqual(["id", "session_id", "role", "content", "tool_call_id", "tool_calls", "tool_name", "timestamp", "token_count", "finish_reason", "reasoning", "reasoning_content"])
  })

  it("a model error is a 200 with Hermes' summary; only the user message is written", async () => {
    const c = await open({ hermesVersion: pin })
    await c.json("POST", "/api/sessions", { id: "e" })
    await c.script({ turns: [{ replies: [{ error: { status: 400, message: "synthetic failure" } }] }] })
    const r = await c.json("POST", "/api/sessions/e/chat", { message: "fail please" })
    expect(r.body).toEqual({
      object: "hermes.session.chat.completion",
      session_id: "e",
      message: { role: "assistant", content: "HTTP 400: synthetic failure" },
      usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 }
    })
    const s = (await c.json("GET", "/api/sessions/e")).body["session"] as Record<string, unknown>
    expect(s).toMatchObject({ message_count: 1, api_call_count: 0, estimated_cost_usd: null, model: "hermes-agent" })
  })

  it("streams named events in upstream's order with seq/ts/run_id and the _thinking progress", async () => {
    const c = await open({ hermesVersion: pin })
    await c.json("POST", "/api/sessions", { id: "st" })
    await c.script({ turns: [{ replies: [{ text: "Stream answer", chunks: ["Stream ", "answer"], usage: { prompt_tokens: 9, completion_tokens: 2 } }] }] })
    const res = await c.request("POST", "/api/sessions/st/chat/stream", { body: { input: "and again", system_message: "be terse" } })
    expect(res.headers.get("content-type")).toBe("text/event-stream")
    expect(res.headers.get("x-hermes-session-id")).toBe("st")
    const events = named(await readSse(res))
    expect(events.map((e) => e.event)).toEqual(["run.started", "message.started", "assistant.delta", "assistant.delta", "tool.progress", "assistant.completed", "run.completed", "done"])
    expect(events.map((e) => e.data["seq"])).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    const runId = events[0]?.data["run_id"]
    expect(runId).toMatch(/^run_[0-9a-f]{32}$/)
    expect(events.every((e) => e.data["run_id"] === runId && e.data["session_id"] === "st")).toBe(true)
    const messageId = (events[1]?.data["message"] as Record<string, unknown>)["id"]
    expect(messageId).toMatch(/^msg_[0-9a-f]{32}$/)
    expect(events[0]?.data["user_message"]).toEqual({ role: "user", content: "and again" })
    expect(events[4]?.data).toMatchObject({ message_id: messageId, tool_name: "_thinking", delta: "Stream answer" })
    expect(Object.keys(events[5]?.data ?? {})).toEqual(["session_id", "message_id", "content", "completed", "partial", "interrupted", "run_id", "seq", "ts"])
    expect(events[6]?.data).toMatchObject({
      messages: [{ role: "assistant", content: "Stream answer", finish_reason: "stop", reasoning: null }],
      usage: { input_tokens: 9, output_tokens: 2, total_tokens: 11 }
    })
    expect(Object.keys(events[7]?.data ?? {})).toEqual(["session_id", "run_id", "seq", "ts"])
  })

  it("a scripted tool call: no tool events (no tools on the gateway), the unknown-tool result in the transcript", async () => {
    const c = await open({ hermesVersion: pin })
    await c.json("POST", "/api/sessions", { id: "t" })
    await c.script({
      turns: [{
        replies: [
          { toolCalls: [{ id: "call_1", name: "terminal", arguments: { command: "ls" } }], usage: { prompt_tokens: 5, completion_tokens: 1 } },
          { text: "after tool", usage: { prompt_tokens: 6, completion_tokens: 2 } }
        ]
      }]
    })
    const events = named(await readSse(await c.request("POST", "/api/sessions/t/chat/stream", { body: { message: "use a tool" } })))
    expect(events.map((e) => e.event)).toEqual(["run.started", "message.started", "assistant.delta", "tool.progress", "assistant.completed", "run.completed", "done"])
    expect(events[5]?.data["messages"]).toEqual([
      { role: "assistant", content: "", tool_calls: [{ id: "call_1", call_id: "call_1", response_item_id: "fc_1", type: "function", function: { name: "terminal", arguments: '{"command":"ls"}' } }], finish_reason: "tool_calls", reasoning: null },
      { role: "tool", content: "Tool 'terminal' does not exist. Available tools: ", tool_call_id: "call_1" },
      { role: "assistant", content: "after tool", finish_reason: "stop", reasoning: null }
    ])
    const s = (await c.json("GET", "/api/sessions/t")).body["session"] as Record<string, unknown>
    expect(s).toMatchObject({ message_count: 4, tool_call_count: 1, input_tokens: 11, output_tokens: 3 })
  })

  it("run.completed after a failed turn left two user messages in a row: 0.19.0 reports the session's earlier replies too", async () => {
    const c = await open({ hermesVersion: pin })
    await c.json("POST", "/api/sessions", { id: "uu" })
    const streamed = async (input: string) =>
      named(await readSse(await c.request("POST", "/api/sessions/uu/chat/stream", { body: { input } }))).find((e) => e.event === "run.completed")?.data["messages"]
    await c.script({ turns: [{ replies: [{ error: { status: 400, message: "synthetic failure" } }] }] })
    expect(await streamed("turn one")).toEqual([])
    await c.script({ turns: [{ replies: [{ text: "answer two" }] }] })
    // the failed turn's lone user message is merged with this one into the history's dict: the
    // transcript still starts with the (rewritten) one-message history, so only this turn is reported
    expect(await streamed("turn two")).toMatchObject([{ role: "assistant", content: "answer two" }])
    await c.script({ turns: [{ replies: [{ error: { status: 400, message: "synthetic failure" } }] }] })
    const third = (await streamed("turn three")) as Array<Record<string, unknown>>
    if (pin === "0.19.0") {
      // history user, user, assistant: the repair merges the two users, the transcript no longer
      // starts with the history, the boundary is 0 — the stored reply comes back in its history shape
      expect(third).toHaveLength(1)
      expect(Object.keys(third[0] ?? {})).toEqual(["role", "content", "timestamp", "finish_reason"])
      expect(third[0]).toMatchObject({ role: "assistant", content: "answer two", finish_reason: "stop" })
    } else expect(third).toEqual([])
  })

  it("a reply repeating a tool call (same name, same arguments) keeps the first: neither stored nor run twice", async () => {
    const c = await open({ hermesVersion: pin, enabledToolsets: ["todo"] })
    await c.json("POST", "/api/sessions", { id: "dup" })
    const merge = { todos: [{ id: "1", content: "x", status: "pending" }], merge: true }
    await c.script({
      turns: [{
        replies: [
          { toolCalls: [{ id: "call_a", name: "todo", arguments: {} }, { id: "call_b", name: "todo", arguments: {} }, { id: "call_c", name: "todo", arguments: merge }] },
          { text: "done" }
        ]
      }]
    })
    await c.json("POST", "/api/sessions/dup/chat", { message: "use tools" })
    const messages = (await c.json<{ data: Array<Record<string, unknown>> }>("GET", "/api/sessions/dup/messages")).body.data
    expect(messages.map((m) => [m["role"], m["tool_call_id"]])).toEqual([["user", null], ["assistant", null], ["tool", "call_a"], ["tool", "call_c"], ["assistant", null]])
    expect((messages[1]?.["tool_calls"] as Array<Record<string, unknown>>).map((t) => t["id"])).toEqual(["call_a", "call_c"])
  })

  it("refuses in upstream's order: 404 before the body, missing message, bad system_message, content errors", async () => {
    const c = await open({ hermesVersion: pin })
    expect((await c.request("POST", "/api/sessions/nope/chat", { body: "not json" })).status).toBe(404)
    await c.json("POST", "/api/sessions", { id: "v" })
    const missing = await c.json("POST", "/api/sessions/v/chat", { message: "   " })
    expect(missing).toMatchObject({ status: 400, body: { error: { message: "Missing 'message' field", code: "missing_message" } } })
    const system = await c.json("POST", "/api/sessions/v/chat/stream", { message: "hi", instructions: 5 })
    expect(system).toMatchObject({ status: 400, body: { error: { message: "system_message must be a string", code: "invalid_system_message" } } })
    const file = await c.json("POST", "/api/sessions/v/chat", { message: [{ type: "input_file", file_id: "f" }, { type: "text", text: "x" }] })
    expect(file).toMatchObject({ status: 400, body: { error: { code: "unsupported_content_type", param: "message" } } })
    expect(((await c.json("GET", "/api/sessions/v")).body["session"] as Record<string, unknown>)["message_count"]).toBe(0)
  })
})
