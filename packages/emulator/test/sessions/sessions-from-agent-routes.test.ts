import { describe, expect, it } from "vitest"
import { openClients } from "../support.js"

const open = openClients()

type Listed = { data: Array<Record<string, unknown>> }

describe.each(["0.19.0", "0.21.0"] as const)("agent turns of other routes appear in /api/sessions on %s", (pin) => {
  it("a run records its turn under the run id, as upstream's agent does (observed live on 0.19.0)", async () => {
    const c = await open({ hermesVersion: pin })
    await c.script({ turns: [{ replies: [{ text: "Hello from run", usage: { prompt_tokens: 30, completion_tokens: 5 } }] }] })
    const { body } = await c.json("POST", "/v1/runs", { input: "hi run" })
    const runId = String(body["run_id"])
    await c.waitForStatus(runId, ["completed"])
    const listed = await c.json<Listed>("GET", "/api/sessions")
    expect(listed.body.data).toHaveLength(1)
    expect(listed.body.data[0]).toMatchObject({
      id: runId,
      source: "api_server",
      user_id: null,
      model: "hermetic-fake-model",
      title: null,
      ended_at: null,
      message_count: 2,
      tool_call_count: 0,
      input_tokens: 30,
      output_tokens: 5,
      estimated_cost_usd: 0,
      actual_cost_usd: null,
      api_call_count: 1,
      parent_session_id: null,
      preview: "hi run",
      has_system_prompt: true,
      has_model_config: true
    })
    const messages = await c.json<Listed>("GET", `/api/sessions/${runId}/messages`)
    expect(messages.body.data.map((m) => [m["role"], m["content"], m["finish_reason"]])).toEqual([
      ["user", "hi run", null],
      ["assistant", "Hello from run", "stop"]
    ])
  })

  it("a response (plain and streamed) records its turn under the X-Hermes-Session-Id it answers with", async () => {
    const c = await open({ hermesVersion: pin })
    await c.script({ turns: [{ replies: [{ text: "Hello from responses", usage: { prompt_tokens: 20, completion_tokens: 4 } }] }, { replies: [{ text: "streamed" }] }] })
    const plain = await c.request("POST", "/v1/responses", { body: { model: "hermes-agent", input: "hi responses" } })
    const sid = plain.headers.get("x-hermes-session-id") ?? ""
    expect(sid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    const s = (await c.json("GET", `/api/sessions/${sid}`)).body["session"] as Record<string, unknown>
    expect(s).toMatchObject({ source: "api_server", model: "hermetic-fake-model", message_count: 2, input_tokens: 20, output_tokens: 4, api_call_count: 1 })
    const streamed = await c.request("POST", "/v1/responses", { body: { input: "stream me", stream: true } })
    await streamed.text()
    const streamedSid = streamed.headers.get("x-hermes-session-id") ?? ""
    const messages = await c.json<Listed>("GET", `/api/sessions/${streamedSid}/messages`)
    expect(messages.body.data.map((m) => m["content"])).toEqual(["stream me", "streamed"])
  })

  it("a chat completion records only its own turn under the derived or named session (history is not rewritten)", async () => {
    const c = await open({ hermesVersion: pin })
    await c.script({ turns: [{ replies: [{ text: "Hello from chat", usage: { prompt_tokens: 12, completion_tokens: 3 } }] }, { replies: [{ text: "second answer" }] }, { replies: [{ text: "header again" }] }] })
    const first = await c.request("POST", "/v1/chat/completions", { body: { model: "hermes-agent", messages: [{ role: "user", content: "hi chat" }] } })
    const derived = first.headers.get("x-hermes-session-id") ?? ""
    expect(derived).toBe("api-bcd7ab85536f5db8")
    await first.text()
    const second = await c.request("POST", "/v1/chat/completions", {
      body: { messages: [{ role: "user", content: "hi chat" }, { role: "assistant", content: "Hello from chat" }, { role: "user", content: "second q" }] }
    })
    expect(second.headers.get("x-hermes-session-id")).toBe(derived)
    await second.text()
    const messages = await c.json<Listed>("GET", `/api/sessions/${derived}/messages`)
    expect(messages.body.data.map((m) => m["content"])).toEqual(["hi chat", "Hello from chat", "second q", "second answer"])
    expect((await c.json("GET", `/api/sessions/${derived}`)).body["session"]).toMatchObject({ input_tokens: 12, output_tokens: 3, api_call_count: 2, message_count: 4 })
    await c.json("POST", "/api/sessions", { id: "named" })
    const named = await c.request("POST", "/v1/chat/completions", { body: { messages: [{ role: "user", content: "via header" }] }, headers: { "x-hermes-session-id": "named" } })
    await named.text()
    expect((await c.json<Listed>("GET", "/api/sessions/named/messages")).body.data.map((m) => m["content"])).toEqual(["via header", "header again"])
  })

  it("a failed run leaves only its user message under the body's session_id", async () => {
    const c = await open({ hermesVersion: pin })
    await c.script({ turns: [{ replies: [{ error: { status: 400, message: "synthetic failure" } }] }] })
    const { body } = await c.json("POST", "/v1/runs", { input: "fail run", session_id: "run-err-sess" })
    await c.waitForStatus(String(body["run_id"]), ["failed"])
    const s = (await c.json("GET", "/api/sessions/run-err-sess")).body["session"] as Record<string, unknown>
    expect(s).toMatchObject({ message_count: 1, api_call_count: 0, estimated_cost_usd: null, input_tokens: 0, has_system_prompt: true })
  })

  it("deleting a session: the next turn under the same id starts a fresh row with only its own messages", async () => {
    const c = await open({ hermesVersion: pin })
    await c.script({ turns: [{ replies: [{ text: "one" }] }, { replies: [{ text: "two" }] }] })
    const first = await c.json("POST", "/v1/runs", { input: "first", session_id: "same" })
    await c.waitForStatus(String(first.body["run_id"]), ["completed"])
    expect((await c.json("DELETE", "/api/sessions/same")).body).toMatchObject({ deleted: true })
    const second = await c.json("POST", "/v1/runs", { input: "second", session_id: "same" })
    await c.waitForStatus(String(second.body["run_id"]), ["completed"])
    const messages = await c.json<Listed>("GET", "/api/sessions/same/messages")
    expect(messages.body.data.map((m) => m["content"])).toEqual(["second", "two"])
  })
})
