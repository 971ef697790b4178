import { describe, expect, it } from "vitest"
import { dataEvents, openClients, readSse } from "../support.js"

const open = openClients()

const approvalTurn = {
  turns: [{
    replies: [
      { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf /tmp/hermetic-probe" }, approval: { description: "recursive delete", patternKey: "rm_rf" } }] },
      { text: "done" }
    ]
  }]
}

describe.each(["0.19.0", "0.21.0"] as const)("approvals on %s", (pin) => {
  it("a tool the gateway does not have is an unknown tool: no approval, no tool events", async () => {
    const c = await open({ hermesVersion: pin })
    await c.script(approvalTurn)
    const runId = String((await c.json("POST", "/v1/runs", { input: "clean up" })).body["run_id"])
    const done = await c.waitForStatus(runId, ["completed"])
    expect(done["output"]).toBe("done")
    const events = dataEvents(await readSse(await c.request("GET", `/v1/runs/${runId}/events`)))
    expect(events.map((e) => e["event"])).toEqual(["message.delta", "reasoning.available", "run.completed"])
  })

  it("waits for approval, resolves FIFO, and streams request and response events", async () => {
    // the approval guard stands in front of tools the gateway has: enable the terminal toolset
    const c = await open({ hermesVersion: pin, enabledToolsets: ["terminal"] })
    await c.script(approvalTurn)
    const runId = String((await c.json("POST", "/v1/runs", { input: "clean up" })).body["run_id"])
    const waiting = await c.waitForStatus(runId, ["waiting_for_approval"])
    expect(waiting["last_event"]).toBe("approval.request")
    const bad = await c.json("POST", `/v1/runs/${runId}/approval`, { choice: "maybe" })
    expect(bad.status).toBe(400)
    expect((bad.body["error"] as Record<string, unknown>)["code"]).toBe("invalid_approval_choice")
    const ok = await c.json("POST", `/v1/runs/${runId}/approval`, { choice: " Approve " })
    expect(ok).toMatchObject({ status: 200, body: { object: "hermes.run.approval_response", run_id: runId, choice: "once", resolved: 1 } })
    const done = await c.waitForStatus(runId, ["completed"])
    expect(done["output"]).toBe("done")
    const again = await c.json("POST", `/v1/runs/${runId}/approval`, { choice: "once" })
    expect(again.status).toBe(409)
    expect((again.body["error"] as Record<string, unknown>)["code"]).toBe("approval_not_active")
    const events = dataEvents(await readSse(await c.request("GET", `/v1/runs/${runId}/events`)))
    expect(events.map((e) => e["event"])).toEqual(["tool.started", "approval.request", "approval.responded", "tool.completed", "message.delta", "reasoning.available", "run.completed"])
    expect(events[1]).toMatchObject({ command: "rm -rf /tmp/hermetic-probe", pattern_key: "rm_rf", description: "recursive delete", choices: ["once", "session", "always", "deny"] })
    expect(events[0]).toMatchObject({ tool: "terminal", preview: "rm -rf /tmp/hermetic-probe" })
  })

  it("approval.request names the command json.loads read, with a NaN beside it in the arguments", async () => {
    const c = await open({ hermesVersion: pin, enabledToolsets: ["terminal"] })
    const args = '{"command": "echo DROP TABLE t9", "note": NaN}'
    await c.script({ turns: [{ replies: [{ toolCalls: [{ name: "terminal", arguments: args }] }, { text: "done" }] }] })
    const runId = String((await c.json("POST", "/v1/runs", { input: "clean up" })).body["run_id"])
    await c.waitForStatus(runId, ["waiting_for_approval"])
    await c.json("POST", `/v1/runs/${runId}/approval`, { choice: "deny" })
    await c.waitForStatus(runId, ["completed"])
    const events = dataEvents(await readSse(await c.request("GET", `/v1/runs/${runId}/events`)))
    expect(events.find((e) => e["event"] === "approval.request")).toMatchObject({ command: "echo DROP TABLE t9" })
  })

  it("409 approval_not_pending while running without a pending approval", async () => {
    const c = await open({ hermesVersion: pin, enabledToolsets: ["terminal"] })
    await c.script({ turns: [{ replies: [{ hold: "h", text: "x" }] }] })
    const runId = String((await c.json("POST", "/v1/runs", { input: "x" })).body["run_id"])
    await c.waitForStatus(runId, ["running"])
    const r = await c.json("POST", `/v1/runs/${runId}/approval`, { choice: "deny" })
    expect(r.status).toBe(409)
    expect((r.body["error"] as Record<string, unknown>)["code"]).toBe("approval_not_pending")
    await c.release("h")
  })
})

describe("steer", () => {
  it("0.19.0 has no steer route", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    expect((await c.request("POST", "/v1/runs/run_x/steer", { body: { input: "x" } })).status).toBe(404)
  })

  it("0.21.0 accepts steer only while running; unconsumed text comes back as pending_steer", async () => {
    const c = await open({ hermesVersion: "0.21.0" })
    await c.script({ turns: [{ replies: [{ hold: "h", text: "answer" }] }] })
    const runId = String((await c.json("POST", `/v1/runs`, { input: "x" })).body["run_id"])
    await c.waitForStatus(runId, ["running"])
    const empty = await c.json("POST", `/v1/runs/${runId}/steer`, { input: "  " })
    expect(empty.status).toBe(400)
    const ok = await c.json("POST", `/v1/runs/${runId}/steer`, { message: "focus on tests" })
    expect(ok).toMatchObject({ status: 200, body: { object: "hermes.run.steer", run_id: runId, accepted: true } })
    await c.release("h")
    const done = await c.waitForStatus(runId, ["completed"])
    expect(done["pending_steer"]).toBe("focus on tests")
    const late = await c.json("POST", `/v1/runs/${runId}/steer`, { text: "too late" })
    expect(late.status).toBe(409)
    expect((late.body["error"] as Record<string, unknown>)["code"]).toBe("run_not_accepting_steer")
    expect((await c.json("POST", `/v1/runs/run_nope/steer`, { text: "x" })).status).toBe(404)
  })

  it("a steer before a tool call is consumed by it", async () => {
    const c = await open({ hermesVersion: "0.21.0", enabledToolsets: ["todo"] })
    await c.script({ turns: [{ replies: [{ hold: "h", toolCalls: [{ name: "todo" }] }, { text: "ok" }] }] })
    const runId = String((await c.json("POST", `/v1/runs`, { input: "x" })).body["run_id"])
    await c.waitForStatus(runId, ["running"])
    expect((await c.json("POST", `/v1/runs/${runId}/steer`, { input: "hint" })).status).toBe(200)
    await c.release("h")
    const done = await c.waitForStatus(runId, ["completed"])
    expect("pending_steer" in done).toBe(false)
  })
})
