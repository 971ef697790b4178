/**
 * What the agent's session flush writes when state.db refuses a message or its content is a list of
 * parts, and after the session is deleted mid-turn (observed live on 0.19.0:
 * evidence/live-comparisons/unbindable-content-parts-deleted-session/).
 */
import { describe, expect, it } from "vitest"
import { flushedContent, REFUSED } from "../../src/features/sessions/FlushedContent.js"
import { PyInt } from "../../src/python/index.js"
import { type Client, openClients } from "../support.js"

const open = openClients()

describe("flushedContent", () => {
  it("joins the text of a list's text parts by a newline, an image part as [screenshot], null when none", () => {
    expect(flushedContent([{ type: "text", text: "parts" }, { type: "text", text: "more" }])).toBe("parts\nmore")
    expect(flushedContent([{ type: "text", text: "one" }, "loose", { type: "input_text", text: "no" }, { type: "text", text: 5 }, { type: "text" }, { type: "text", text: null }]))
      .toBe("one\n5\n\nNone")
    expect(flushedContent([{ type: "image_url", image_url: { url: "x" } }, { type: "image" }, { type: "input_image" }])).toBe("[screenshot]\n[screenshot]\n[screenshot]")
    expect(flushedContent([{ type: "input_text", text: "only" }])).toBeNull()
    expect(flushedContent([])).toBeNull()
    expect(flushedContent([{ type: "text", text: "" }])).toBe("")
  })

  it("gives a multimodal tool result's summary, else its text parts, else a placeholder", () => {
    expect(flushedContent({ _multimodal: true, content: [{ type: "text", text: "a" }], text_summary: "sum" })).toBe("sum")
    expect(flushedContent({ _multimodal: true, content: [{ type: "text", text: "a" }, { type: "text", text: "b" }], text_summary: "" })).toBe("a\nb")
    expect(flushedContent({ _multimodal: true, content: [] })).toBe("[multimodal tool result]")
    const notMultimodal = { _multimodal: 1, content: [] }
    expect(flushedContent(notMultimodal)).toBe(notMultimodal)
  })

  it("refuses an int past int64 and a part whose type is a list or dict; keeps int64's ends", () => {
    expect(flushedContent(new PyInt(2n ** 63n))).toBe(REFUSED)
    expect(flushedContent(new PyInt(-(2n ** 63n) - 1n))).toBe(REFUSED)
    expect(flushedContent(new PyInt(2n ** 63n - 1n))).toEqual(new PyInt(2n ** 63n - 1n))
    expect(flushedContent(new PyInt(-(2n ** 63n)))).toEqual(new PyInt(-(2n ** 63n)))
    expect(flushedContent([{ type: "text", text: "a" }, { type: ["image"] }])).toBe(REFUSED)
    expect(flushedContent([{ type: { k: 1 } }])).toBe(REFUSED)
    expect(flushedContent("text")).toBe("text")
  })
})

type Listed = { data: Array<Record<string, unknown>> }
const messages = async (c: Client, id: string) => (await c.json<Listed>("GET", `/api/sessions/${id}/messages`)).body.data
const session = async (c: Client, id: string) => {
  const res = await c.json("GET", `/api/sessions/${id}`)
  return { status: res.status, session: res.body["session"] as Record<string, unknown> | undefined }
}
const startRun = async (c: Client, rawBody: string): Promise<string> => {
  const res = await c.request("POST", "/v1/runs", { body: rawBody, headers: { "content-type": "application/json" } })
  return String(((await res.json()) as Record<string, unknown>)["run_id"])
}

describe("the session flush on 0.19.0", () => {
  it("an int past int64 as the user's content: the run completes, the session row stays empty, no id is used", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    await c.script({ turns: [{ replies: [{ text: "one" }] }, { replies: [{ text: "two" }] }] })
    const runId = await startRun(c, '{"input":[{"role":"user","content":9223372036854775808}]}')
    expect(await c.waitForStatus(runId, ["completed"])).toMatchObject({ output: "one" })
    expect(await session(c, runId)).toMatchObject({ status: 200, session: { message_count: 0, api_call_count: 1, source: "api_server" } })
    expect(await messages(c, runId)).toEqual([])
    const again = String((await c.json("POST", "/v1/runs", { input: "after", session_id: runId })).body["run_id"])
    await c.waitForStatus(again, ["completed"])
    expect((await messages(c, runId)).map((m) => [m["id"], m["role"], m["content"]])).toEqual([[1, "user", "after"], [2, "assistant", "two"]])
  })

  it("a list of text parts is stored as their text joined by a newline", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    await c.script({ turns: [{ replies: [{ text: "ok" }] }] })
    const runId = await startRun(c, '{"input":[{"role":"user","content":[{"type":"text","text":"parts"},{"type":"text","text":"more"}]}]}')
    await c.waitForStatus(runId, ["completed"])
    expect((await messages(c, runId)).map((m) => m["content"])).toEqual(["parts\nmore", "ok"])
  })

  it("a part whose type is a list fails the run before any model call; the turn start wrote the row, no message", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    await c.script({ turns: [{ replies: [{ text: "for the next run" }] }] })
    const runId = await startRun(c, '{"input":[{"role":"user","content":[{"type":"text","text":"a"},{"type":["image"]}]}]}')
    const failed = await c.waitForStatus(runId, ["failed"])
    expect(failed).toMatchObject({ error: "unhashable type: 'list'", last_event: "run.failed" })
    expect(failed).not.toHaveProperty("output")
    expect(await session(c, runId)).toMatchObject({ status: 200, session: { message_count: 0, api_call_count: 0, estimated_cost_usd: null } })
    expect(await messages(c, runId)).toEqual([])
    const dictType = await startRun(c, '{"input":[{"role":"user","content":[{"type":{"k":1}}]}]}')
    expect(await c.waitForStatus(dictType, ["failed"])).toMatchObject({ error: "unhashable type: 'dict'" })
    // no model call was made: the Script's one turn answers the next run
    const next = String((await c.json("POST", "/v1/runs", { input: "next" })).body["run_id"])
    expect(await c.waitForStatus(next, ["completed"])).toMatchObject({ output: "for the next run" })
  })

  it("a session deleted while its run is held comes back bare from the answered call's token write", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    await c.script({ turns: [{ replies: [{ hold: "h", text: "after the delete", usage: { prompt_tokens: 3, completion_tokens: 1 } }] }] })
    const runId = String((await c.json("POST", "/v1/runs", { input: "held", session_id: "s-del" })).body["run_id"])
    await c.waitForStatus(runId, ["running"])
    for (let i = 0; i < 200 && (await session(c, "s-del")).status !== 200; i++) await new Promise((r) => setTimeout(r, 5))
    expect((await c.request("DELETE", "/api/sessions/s-del")).status).toBe(200)
    expect((await session(c, "s-del")).status).toBe(404)
    await c.release("h")
    await c.waitForStatus(runId, ["completed"])
    const back = await session(c, "s-del")
    expect(back.session).toMatchObject({
      source: "unknown", model: "hermetic-fake-model", message_count: 1, api_call_count: 1, input_tokens: 3, output_tokens: 1,
      has_system_prompt: false, has_model_config: false, title: null
    })
    expect((await messages(c, "s-del")).map((m) => [m["id"], m["role"]])).toEqual([[2, "assistant"]])
  })

  it("a session deleted while its run is held, then stopped: no answered call, so it stays gone", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    await c.script({ turns: [{ replies: [{ hold: "h", text: "never seen" }] }] })
    const runId = String((await c.json("POST", "/v1/runs", { input: "held", session_id: "s-stop" })).body["run_id"])
    await c.waitForStatus(runId, ["running"])
    for (let i = 0; i < 200 && (await session(c, "s-stop")).status !== 200; i++) await new Promise((r) => setTimeout(r, 5))
    expect((await c.request("DELETE", "/api/sessions/s-stop")).status).toBe(200)
    await c.request("POST", `/v1/runs/${runId}/stop`)
    await c.release("h")
    await c.waitForStatus(runId, ["cancelled"])
    expect((await session(c, "s-stop")).status).toBe(404)
  })
})
