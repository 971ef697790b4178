/**
 * What the emulator's agent sends the model (GET /__admin/model-calls): the history a turn plays
 * on, the caller's system prompt after Hermes' own, and the fields the per-call copy drops. Each
 * expectation was seen on the real 0.19.0 gateway (packages/diff/scenarios/model-calls-*.json).
 */
import { describe, expect, it } from "vitest"
import { CORE_SYSTEM_PROMPT_STANDIN } from "../../src/agent/ApiMessages.js"
import { ADMIN_HEADERS, type Client, openClients } from "../support.js"

const open = openClients()

type Call = { kind: string; messages: Array<Record<string, unknown>> }

const modelCalls = async (c: Client): Promise<Array<Call>> => {
  const res = await fetch(`${c.emu.url}/__admin/model-calls`, { headers: { "x-hermetic-namespace": "default", ...ADMIN_HEADERS } })
  expect(res.status).toBe(200)
  return ((await res.json()) as { calls: Array<Call> }).calls
}

const system = (caller?: string) => ({ role: "system", content: caller === undefined ? CORE_SYSTEM_PROMPT_STANDIN : `${CORE_SYSTEM_PROMPT_STANDIN}\n\n${caller}` })

describe("model calls", () => {
  it("a session chat turn plays on the session's stored transcript, without its timestamps, its system_message after Hermes' prompt", async () => {
    const c = await open()
    await c.json("POST", "/api/sessions", { id: "s-mc" })
    await c.script({ turns: [{ replies: [{ text: "one out" }] }, { replies: [{ text: "two out" }] }, { replies: [{ text: "three out" }] }] })
    expect((await c.request("POST", "/api/sessions/s-mc/chat", { body: { message: "one in", system_message: "be kind" } })).status).toBe(200)
    expect((await c.request("POST", "/api/sessions/s-mc/chat", { body: { message: "two in" } })).status).toBe(200)
    const stream = await c.request("POST", "/api/sessions/s-mc/chat/stream", { body: { input: "three in", instructions: "streamed" } })
    await stream.text()
    const calls = await modelCalls(c)
    expect(calls.map((call) => call.kind)).toEqual(["main", "main", "main"])
    expect(calls[0]?.messages).toEqual([system("be kind"), { role: "user", content: "one in" }])
    expect(calls[1]?.messages).toEqual([system(), { role: "user", content: "one in" }, { role: "assistant", content: "one out" }, { role: "user", content: "two in" }])
    expect(calls[2]?.messages).toEqual([
      system("streamed"),
      { role: "user", content: "one in" },
      { role: "assistant", content: "one out" },
      { role: "user", content: "two in" },
      { role: "assistant", content: "two out" },
      { role: "user", content: "three in" }
    ])
  })

  it("the session chat stream still reports only the new turn's messages in run.completed", async () => {
    const c = await open()
    await c.json("POST", "/api/sessions", { id: "s-rc" })
    await c.script({ turns: [{ replies: [{ text: "first" }] }, { replies: [{ text: "second" }] }] })
    await c.request("POST", "/api/sessions/s-rc/chat", { body: { message: "a" } })
    const text = await (await c.request("POST", "/api/sessions/s-rc/chat/stream", { body: { message: "b" } })).text()
    const completed = text.split("\n\n").find((f) => f.startsWith("event: run.completed"))
    const payload = JSON.parse((completed ?? "").split("\n")[1]?.slice(6) ?? "{}") as { messages: Array<Record<string, unknown>> }
    expect(payload.messages.map((m) => [m["role"], m["content"]])).toEqual([["assistant", "second"]])
  })

  it("responses and runs send their instructions, a continuation the previous response's when it gives none", async () => {
    const c = await open()
    await c.script({ turns: [{ replies: [{ text: "r1" }] }, { replies: [{ text: "r2" }] }, { replies: [{ text: "r3" }] }] })
    const a = await c.json("POST", "/v1/responses", { model: "hermes-agent", input: "first", instructions: "inst A" })
    await c.json("POST", "/v1/responses", { model: "hermes-agent", input: "second", previous_response_id: a.body["id"] })
    const run = await c.json("POST", "/v1/runs", { input: "third", instructions: "run inst" })
    await c.waitForStatus(String(run.body["run_id"]), ["completed"])
    const calls = await modelCalls(c)
    expect(calls.map((call) => call.messages[0])).toEqual([system("inst A"), system("inst A"), system("run inst")])
    expect(calls[1]?.messages.slice(1)).toEqual([{ role: "user", content: "first" }, { role: "assistant", content: "r1" }, { role: "user", content: "second" }])
  })

  it("chat completions: system messages joined after Hermes' prompt, developer messages dropped", async () => {
    const c = await open()
    await c.script({ turns: [{ replies: [{ text: "ok" }] }] })
    await c.json("POST", "/v1/chat/completions", {
      messages: [{ role: "system", content: "s1" }, { role: "developer", content: "dev" }, { role: "system", content: "s2" }, { role: "user", content: " hi " }]
    })
    expect((await modelCalls(c))[0]?.messages).toEqual([system("s1\ns2"), { role: "user", content: "hi" }])
  })

  it("a reset forgets the calls", async () => {
    const c = await open()
    await c.script({ turns: [{ replies: [{ text: "ok" }] }] })
    await c.json("POST", "/v1/chat/completions", { messages: [{ role: "user", content: "hi" }] })
    expect(await modelCalls(c)).toHaveLength(1)
    await c.admin("/reset")
    expect(await modelCalls(c)).toEqual([])
  })
})
