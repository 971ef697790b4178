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

  it("a recurring job past its grace runs once at the jump, then waits for its next time", async () => {
    // the real 0.19.0 runs a stale job once and skips only the runs it missed
    // (packages/diff/scenarios/jobs-stale-recurring-run-once.json, recorded live)
    const c = await open({ hermesVersion: "0.19.0" })
    await c.admin("/clock", { freeze: true })
    const created = await c.json<{ job: { id: string } }>("POST", "/api/jobs", { name: "ten", schedule: "*/10 * * * *", prompt: "report" })
    const id = created.body.job.id
    await c.script({ turns: [{ replies: [{ text: "fired" }] }, { replies: [{ text: "again" }] }] })
    const job = async () => (await c.json<{ job: { last_status: string | null; last_run_at: string | null; next_run_at: string } }>("GET", `/api/jobs/${id}`)).body.job
    // two hours on: twelve runs missed, far past the 5-minute grace of a ten-minute cron
    await c.admin("/clock", { advance: 7200 })
    const after = await job()
    expect(after.last_status).toBe("ok")
    expect(Date.parse(after.next_run_at) - Date.parse(after.last_run_at ?? "")).toBeLessThanOrEqual(600_000)
    expect(Date.parse(after.next_run_at)).toBeGreaterThan(Date.parse(after.last_run_at ?? ""))
    expect(await (await c.admin("/cron/tick")).json()).toEqual({ fired: 0 })
  })

  it("a one-shot allowed two runs is completed after its firing, its run claim cleared before the fire claim", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    await c.admin("/clock", { freeze: true })
    await c.admin("/clock", { set: 1_800_000_000 })
    const created = await c.json<{ job: { id: string } }>("POST", "/api/jobs", { name: "twice", schedule: "2027-01-15T08:00:30Z", prompt: "p", repeat: 2 })
    const id = created.body.job.id
    await c.script({ turns: [{ replies: [{ text: "once ran" }] }] })
    await c.admin("/clock", { advance: 60 })
    const job = (await c.json<{ job: Record<string, unknown> }>("GET", `/api/jobs/${id}`)).body.job
    expect([job["state"], job["enabled"], job["repeat"], job["next_run_at"]]).toEqual(["completed", false, { times: 2, completed: 1 }, null])
    expect(Object.keys(job).slice(-2)).toEqual(["run_claim", "fire_claim"])
    expect([job["run_claim"], job["fire_claim"]]).toEqual([null, null])
  })
})
