/**
 * A job's repeat counts are Python ints (or whatever a client PATCHes in): mark_job_run adds 1 to
 * `completed` and removes the job once `completed >= times`; a one-shot's dispatch claim counts
 * first. Exact on both sides of 2^53, and a bool counts as an int
 * (packages/diff/scenarios/jobs-repeat-counts-at-the-safe-integer-boundary.json, recorded live).
 * Bodies are read as text: JSON.parse would round the wide ints.
 */
import { describe, expect, it } from "vitest"
import { openClients } from "../support.js"

const open = openClients()

const setup = async () => {
  const c = await open({ hermesVersion: "0.19.0" })
  await c.admin("/clock", { freeze: true })
  await c.admin("/clock", { set: 1_800_000_000 })
  await c.script({ turns: Array.from({ length: 8 }, () => ({ replies: [{ text: "ran" }] })) })
  const create = async (schedule: string, repeat: string) => {
    const created = await c.json<{ job: { id: string } }>("POST", "/api/jobs", { name: schedule, schedule, prompt: "p", repeat: 5 })
    const id = created.body.job.id
    const patched = await c.request("PATCH", `/api/jobs/${id}`, { body: `{"repeat": ${repeat}}`, headers: { "content-type": "application/json" } })
    expect(patched.status).toBe(200)
    return id
  }
  const repeatOf = async (id: string) => {
    const res = await c.request("GET", `/api/jobs/${id}`)
    if (res.status === 404) return "removed"
    return /"repeat": (\{[^}]*\}|[^,]*)/.exec(await res.text())?.[1]
  }
  return { c, create, repeatOf }
}

describe("repeat counts of a fired job (0.19.0)", () => {
  it("counts whole across 2^53 and removes a job whose count reaches a limit past 2^53", async () => {
    const { c, create, repeatOf } = await setup()
    const a = await create("every 2m", `{"times": 9007199254740993, "completed": 9007199254740991}`)
    const b = await create("every 2m", `{"times": 0, "completed": -9007199254740991}`)
    const c2 = await create("every 2m", `{"times": 9007199254740992, "completed": 9007199254740991}`)
    const d = await create("every 2m", `{"times": -1, "completed": -9007199254740992}`)
    await c.admin("/clock", { advance: 130 })
    expect(await repeatOf(a)).toBe(`{"times": 9007199254740993, "completed": 9007199254740992}`)
    expect(await repeatOf(b)).toBe(`{"times": 0, "completed": -9007199254740990}`)
    expect(await repeatOf(c2)).toBe("removed")
    expect(await repeatOf(d)).toBe(`{"times": -1, "completed": -9007199254740991}`)
    await c.admin("/clock", { advance: 120 })
    expect(await repeatOf(a)).toBe("removed")
  })

  it("a one-shot's dispatch claim counts past 2^53 and its run removes it at the limit", async () => {
    const { c, create, repeatOf } = await setup()
    const e = await create("2027-01-15T08:01:00Z", `{"times": 9007199254740993, "completed": 9007199254740992}`)
    await c.admin("/clock", { advance: 130 })
    expect(await repeatOf(e)).toBe("removed")
  })

  it("a float count stays a float and a bool counts as an int", async () => {
    const { c, create, repeatOf } = await setup()
    const f = await create("every 2m", `{"times": 10, "completed": 3.0}`)
    const g = await create("every 2m", `{"times": true, "completed": 0}`)
    const h = await create("every 2m", `{"times": 5, "completed": true}`)
    await c.admin("/clock", { advance: 130 })
    expect(await repeatOf(f)).toBe(`{"times": 10, "completed": 4.0}`)
    expect(await repeatOf(g)).toBe("removed")
    expect(await repeatOf(h)).toBe(`{"times": 5, "completed": 2}`)
  })
})
