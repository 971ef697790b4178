/**
 * The cron ticker's wait is 60 s of the gateway's monotonic clock: a clock move past the next tick
 * ends it at once (one tick), as on the real 0.19.0 gateway under libfaketime with the oracle
 * runner's sem_clockwait shim (packages/diff/scenarios/jobs-tick-after-clock-jump.json, equal live).
 */
import { describe, expect, it } from "vitest"
import { openClients } from "../support.js"

const open = openClients()

describe("cron ticks follow the namespace clock", () => {
  it("a jump past a job's time fires it without /__admin/cron/tick; a short move does not tick", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    await c.admin("/clock", { freeze: true })
    const created = await c.json<{ job: { id: string } }>("POST", "/api/jobs", { name: "hourly", schedule: "every 1h", prompt: "report" })
    const id = created.body.job.id
    await c.script({ turns: [{ replies: [{ text: "fired" }] }] })
    const lastStatus = async () => (await c.json<{ job: { last_status: string | null } }>("GET", `/api/jobs/${id}`)).body.job.last_status
    await c.admin("/clock", { advance: 30 })
    expect(await lastStatus()).toBeNull()
    await c.admin("/clock", { advance: 3630 })
    expect(await lastStatus()).toBe("ok")
    // the jump was one tick: the job's next run is an hour on, and nothing else fires
    expect(await (await c.admin("/cron/tick")).json()).toEqual({ fired: 0 })
  })
})
