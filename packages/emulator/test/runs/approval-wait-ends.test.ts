/**
 * How an approval wait ends without an answer, as on the real 0.19.0 gateway (equal live:
 * scenarios/tools/tools-approval-timeout-after-clock-jump.json and
 * tools-approval-stop-seen-within-a-second.json): 60 s of the gateway's clock (a jump gets there
 * at once) is a denial by silence; a stop is seen at the wait's next 1 s slice and denies it. Either
 * way nothing is left to answer.
 */
import { describe, expect, it } from "vitest"
import { openClients } from "../support.js"

const open = openClients()

const dangerous = {
  turns: [{ replies: [{ toolCalls: [{ name: "terminal", arguments: { command: "echo DROP TABLE t" } }] }, { text: "after" }] }]
}

const toolResult = async (c: Awaited<ReturnType<typeof open>>, runId: string) => {
  const messages = (await c.json<{ data: Array<{ role: string; content: string }> }>("GET", `/api/sessions/${runId}/messages`)).body.data
  return JSON.parse(messages.find((m) => m.role === "tool")?.content ?? "{}") as { error?: string }
}

describe("the approval wait without an answer", () => {
  it("a clock jump past approvals.timeout denies by silence", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["terminal"] })
    await c.script(dangerous)
    const runId = String((await c.json("POST", "/v1/runs", { input: "go" })).body["run_id"])
    await c.waitForStatus(runId, ["waiting_for_approval"])
    await c.admin("/clock", { advance: 61 })
    expect((await c.waitForStatus(runId, ["completed"]))["output"]).toBe("after")
    expect((await toolResult(c, runId)).error).toMatch(/^BLOCKED: Command timed out without user response/)
    expect((await c.json("POST", `/v1/runs/${runId}/approval`, { choice: "once" })).status).toBe(409)
  })

  it("a stop is seen within a second and denies the request", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["terminal"] })
    await c.script(dangerous)
    const runId = String((await c.json("POST", "/v1/runs", { input: "go" })).body["run_id"])
    await c.waitForStatus(runId, ["waiting_for_approval"])
    await c.json("POST", `/v1/runs/${runId}/stop`)
    await c.waitForStatus(runId, ["cancelled"])
    expect((await toolResult(c, runId)).error).toMatch(/^BLOCKED: Command denied by user/)
    const late = await c.json("POST", `/v1/runs/${runId}/approval`, { choice: "once" })
    expect(late.status).toBe(409)
  })
})
