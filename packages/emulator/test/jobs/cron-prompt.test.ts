/**
 * The user message of a cron firing: Hermes' cron preamble (a stand-in here) then the job's
 * prompt as `str(job["prompt"] or "")` (cron/scheduler.py _build_job_prompt on 0.19.0). An update
 * can store an empty list or object as the prompt (falsy, so no prompt scan); the firing then
 * sends an empty prompt, not the container's repr (packages/diff/scenarios/jobs-cron-empty-container-prompt.json, recorded live).
 */
import { describe, expect, it } from "vitest"
import { CRON_PREAMBLE_STANDIN } from "../../src/features/jobs/JobTicker.js"
import { ADMIN_HEADERS, type Client, openClients } from "../support.js"

const open = openClients()

type Call = { kind: string; messages: Array<Record<string, unknown>> }

const lastUserMessages = async (c: Client): Promise<Array<unknown>> => {
  const res = await fetch(`${c.emu.url}/__admin/model-calls`, { headers: { "x-hermetic-namespace": "default", ...ADMIN_HEADERS } })
  expect(res.status).toBe(200)
  return ((await res.json()) as { calls: Array<Call> }).calls.map((call) => call.messages.filter((m) => m["role"] === "user").at(-1)?.["content"])
}

describe("a cron firing's prompt", () => {
  it("is the preamble then the job's prompt; an empty list or object stored by an update is sent as an empty prompt", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    await c.admin("/clock", { freeze: true })
    const ids: Array<string> = []
    for (const name of ["kept", "emptied list", "emptied dict"]) {
      ids.push((await c.json<{ job: { id: string } }>("POST", "/api/jobs", { name, schedule: "every 1h", prompt: `${name} prompt` })).body.job.id)
    }
    expect((await c.request("PATCH", `/api/jobs/${ids[1]}`, { body: { prompt: [] } })).status).toBe(200)
    expect((await c.request("PATCH", `/api/jobs/${ids[2]}`, { body: { prompt: {} } })).status).toBe(200)
    await c.script({ turns: [{ replies: [{ text: "one" }] }, { replies: [{ text: "two" }] }, { replies: [{ text: "three" }] }] })
    await c.admin("/clock", { advance: 3660 })
    // the model receives each message stripped, so an empty prompt leaves the preamble alone
    expect((await lastUserMessages(c)).sort()).toEqual([CRON_PREAMBLE_STANDIN, CRON_PREAMBLE_STANDIN, `${CRON_PREAMBLE_STANDIN}\n\nkept prompt`])
  })
})
