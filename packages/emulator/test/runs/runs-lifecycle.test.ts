import { describe, expect, it } from "vitest"
import { dataEvents, openClients, readSse } from "../support.js"

const open = openClients()

describe.each(["0.19.0", "0.21.0"] as const)("runs lifecycle on %s", (pin) => {
  it("admits a run with 202 and the pin's acceptance body", async () => {
    const c = await open({ hermesVersion: pin })
    const r = await c.json("POST", "/v1/runs", { input: "hi" })
    expect(r.status).toBe(202)
    expect(r.body["run_id"]).toMatch(/^run_[0-9a-f]{32}$/)
    expect(r.body["status"]).toBe("started")
    expect("replayed" in r.body).toBe(pin === "0.21.0")
  })

  it("hold keeps the run running; release completes it with output and usage", async () => {
    const c = await open({ hermesVersion: pin })
    await c.script({ turns: [{ replies: [{ hold: "h1", text: "Hello there", chunks: ["Hel", "lo there"], usage: { prompt_tokens: 12, completion_tokens: 3 } }] }] })
    const { body } = await c.json("POST", "/v1/runs", { input: "hi", session_id: "s1", model: "m1" })
    const runId = String(body["run_id"])
    const running = await c.waitForStatus(runId, ["running"])
    expect(running).toMatchObject({ object: "hermes.run", run_id: runId, session_id: "s1", model: "m1" })
    await c.release("h1")
    const done = await c.waitForStatus(runId, ["completed"])
    expect(done["output"]).toBe("Hello there")
    expect(done["usage"]).toEqual({ input_tokens: 12, output_tokens: 3, total_tokens: 15 })
    expect(done["last_event"]).toBe("run.completed")
    // reasoning.available (the reply's text) set last_event before the result fields: key order as the real 0.19.0 gateway
    expect(Object.keys(done)).toEqual(["object", "run_id", "status", "updated_at", "created_at", "session_id", "model", "last_event", "output", "usage"])
  })

  it("streams message.delta per chunk then run.completed, read once", async () => {
    const c = await open({ hermesVersion: pin })
    await c.script({ turns: [{ replies: [{ text: "abc", chunks: ["a", "b", "c"] }] }] })
    const { body } = await c.json("POST", "/v1/runs", { input: "hi" })
    const runId = String(body["run_id"])
    const res = await c.request("GET", `/v1/runs/${runId}/events`)
    expect(res.headers.get("content-type")).toBe("text/event-stream")
    const frames = await readSse(res)
    expect(frames.at(-1)).toBe(": stream closed")
    const events = dataEvents(frames)
    expect(events.map((e) => e["event"])).toEqual(["message.delta", "message.delta", "message.delta", "reasoning.available", "run.completed"])
    expect(events[3]?.["text"]).toBe("abc")
    expect(events.slice(0, 3).map((e) => e["delta"])).toEqual(["a", "b", "c"])
    const again = await c.request("GET", `/v1/runs/${runId}/events`)
    expect(again.status).toBe(404)
    expect(await again.json()).toEqual({ error: { message: `Run not found: ${runId}`, type: "invalid_request_error", param: null, code: "run_not_found" } })
  })

  it("an error reply fails the run", async () => {
    const c = await open({ hermesVersion: pin })
    await c.script({ turns: [{ replies: [{ error: { status: 400, message: "synthetic failure" } }] }] })
    const { body } = await c.json("POST", "/v1/runs", { input: "hi" })
    const done = await c.waitForStatus(String(body["run_id"]), ["failed"])
    expect(done["last_event"]).toBe("run.failed")
    expect(done["error"]).toBe("HTTP 400: synthetic failure") // as the real 0.19.0 gateway reports it
  })

  it("stop while held cancels the run", async () => {
    const c = await open({ hermesVersion: pin })
    await c.script({ turns: [{ replies: [{ hold: "h1", text: "late" }] }] })
    const { body } = await c.json("POST", "/v1/runs", { input: "hi" })
    const runId = String(body["run_id"])
    await c.waitForStatus(runId, ["running"])
    const stop = await c.json("POST", `/v1/runs/${runId}/stop`)
    expect(stop).toMatchObject({ status: 200, body: { run_id: runId, status: "stopping" } })
    const done = await c.waitForStatus(runId, ["cancelled"])
    expect(done["last_event"]).toBe("run.cancelled")
  })

  it("stop of a settled run follows the pin", async () => {
    const c = await open({ hermesVersion: pin })
    const { body } = await c.json("POST", "/v1/runs", { input: "hi" })
    const runId = String(body["run_id"])
    const done = await c.waitForStatus(runId, ["completed"])
    const stop = await c.json("POST", `/v1/runs/${runId}/stop`)
    if (pin === "0.19.0") expect(stop.status).toBe(404)
    else expect(stop).toMatchObject({ status: 200, body: done })
  })

  it("unknown runs are 404 run_not_found on every run route", async () => {
    const c = await open({ hermesVersion: pin })
    for (const [method, path] of [["GET", ""], ["POST", "/stop"], ["POST", "/approval"]] as const) {
      const r = await c.json(method, `/v1/runs/run_nope${path}`, method === "POST" ? { choice: "once" } : undefined)
      expect(r.status).toBe(404)
      expect((r.body["error"] as Record<string, unknown>)["code"]).toBe("run_not_found")
    }
  })

  it("terminal statuses expire 3600 s after their last update, in the next 60 s sweep", async () => {
    const c = await open({ hermesVersion: pin })
    const { body } = await c.json("POST", "/v1/runs", { input: "hi" })
    const runId = String(body["run_id"])
    await c.waitForStatus(runId, ["completed"])
    // the jump makes a sweep due: it runs on this access and finds the status 3599 s old
    await c.admin("/clock", { advance: 3599 })
    expect((await c.json("GET", `/v1/runs/${runId}`)).status).toBe(200)
    // past the hour, but the next sweep is 60 s after that one (observed live on 0.19.0: still 200)
    await c.admin("/clock", { advance: 2 })
    expect((await c.json("GET", `/v1/runs/${runId}`)).status).toBe(200)
    await c.admin("/clock", { advance: 57 })
    expect((await c.json("GET", `/v1/runs/${runId}`)).status).toBe(200)
    await c.admin("/clock", { advance: 2 })
    expect((await c.json("GET", `/v1/runs/${runId}`)).status).toBe(404)
  })

  it("a jump far past the hour expires a status at the first access after it", async () => {
    const c = await open({ hermesVersion: pin })
    const { body } = await c.json("POST", "/v1/runs", { input: "hi" })
    const runId = String(body["run_id"])
    await c.waitForStatus(runId, ["completed"])
    await c.admin("/clock", { advance: 3700 })
    expect((await c.json("GET", `/v1/runs/${runId}`)).status).toBe(404)
  })

  it("a set to the past moves the sweep's loop deadline away: a status past both TTLs stays, until loop time is back past it", async () => {
    const c = await open({ hermesVersion: pin })
    await c.script({ turns: [{ replies: [{ text: "kept" }] }] })
    await c.admin("/clock", { set: 1_700_000_000 })
    const { body } = await c.json("POST", "/v1/runs", { input: "hi" })
    const runId = String(body["run_id"])
    await c.waitForStatus(runId, ["completed"])
    await c.admin("/clock", { advance: 4100 })
    // upstream's asyncio.sleep(60) was armed before the set, ~3 years ahead on the loop clock now
    expect((await c.json("GET", `/v1/runs/${runId}`)).status).toBe(200)
    const events = await c.request("GET", `/v1/runs/${runId}/events`)
    expect(events.status).toBe(200)
    await events.body?.cancel()
    // a set forward past the real present brings loop time past the deadline: the sweep runs
    // and finds the status years old by wall time
    await c.admin("/clock", { set: Date.now() / 1000 + 120 })
    expect((await c.json("GET", `/v1/runs/${runId}`)).status).toBe(404)
  })

  it("a restart forgets keyless runs", async () => {
    const c = await open({ hermesVersion: pin })
    const { body } = await c.json("POST", "/v1/runs", { input: "hi" })
    const runId = String(body["run_id"])
    await c.waitForStatus(runId, ["completed"])
    await c.admin("/restart")
    expect((await c.json("GET", `/v1/runs/${runId}`)).status).toBe(404)
  })
})
