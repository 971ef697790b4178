/**
 * The shared gateway's state check (target/StateFingerprint.ts): what it reads, what it reports as
 * changed, and that a play whose `end` finds state left behind fails with that difference instead
 * of passing (runner/runScenario.ts no longer swallows `end`'s failure).
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Gateway } from "@hermetic/oracle-runner"
import { Effect, Either } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runScenario } from "../src/runner/runScenario.js"
import type { Scenario } from "../src/scenario/Scenario.js"
import type { LiveDriver } from "../src/target/LiveDriver.js"
import { liveTarget } from "../src/target/liveTarget.js"
import { stubDriver } from "./support.js"
import { fingerprintDifference, type StateFingerprint, stateFingerprint } from "../src/target/StateFingerprint.js"

/** What the stub gateway and fake model answer; tests change it between reads. */
const state = {
  sessions: [{ id: "s1", message_count: 2 }] as Array<{ id: string; message_count: number }>,
  jobs: [] as Array<{ id: string; state: string; enabled: boolean }>,
  view: { pendingTurns: 0, turnsStarted: 3, currentTurn: null, repliesLeftInTurn: 0, heldCalls: [] as Array<string> },
  auth: [] as Array<string | undefined>
}
let server: Server
let base = ""
beforeAll(async () => {
  server = createServer((req, res) => {
    state.auth.push(req.headers.authorization)
    const path = (req.url ?? "").split("?")[0]
    const body = path === "/api/sessions" ? { object: "list", data: state.sessions } : path === "/api/jobs" ? { jobs: state.jobs } : path === "/__admin/state" ? state.view : undefined
    res.writeHead(body === undefined ? 404 : 200, { "content-type": "application/json" }).end(JSON.stringify(body ?? { error: "no" }))
  })
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((ok) => server.close(() => ok())))

const gateway = (): Gateway => ({ baseUrl: base, apiKey: "k", fakeModelUrl: base, journal: () => [] }) as unknown as Gateway

describe("stateFingerprint", () => {
  it("reads sessions, jobs and the fake model's Script and holds, with the gateway's key on the API only", async () => {
    state.auth = []
    const f = await Effect.runPromise(stateFingerprint(gateway()))
    expect(f).toEqual({ sessions: ["s1 (2 messages)"], jobs: [], script: "0 turn(s) queued, 0 reply(ies) left in the current one", calls: [] })
    expect(state.auth.sort()).toEqual(["Bearer k", "Bearer k", undefined].sort())
  })

  it("fails when a route does not answer 200", async () => {
    const r = await Effect.runPromise(Effect.either(stateFingerprint({ ...gateway(), baseUrl: `${base}/nowhere` } as Gateway)))
    expect(Either.isLeft(r) && r.left.message).toMatch(/answered 404/)
  })
})

describe("fingerprintDifference", () => {
  const before: StateFingerprint = { sessions: ["a (1 messages)"], jobs: ["j1 scheduled true"], script: "0 turn(s) queued, 0 reply(ies) left in the current one", calls: [] }

  it("is empty for the same state", () => {
    expect(fingerprintDifference(before, { ...before })).toEqual([])
  })

  it("names what was added, what went and what is left of the Script and the calls", () => {
    const after: StateFingerprint = { sessions: ["a (3 messages)", "b (0 messages)"], jobs: [], script: "1 turn(s) queued, 0 reply(ies) left in the current one", calls: ["held on h1"] }
    expect(fingerprintDifference(before, after)).toEqual([
      "sessions added: a (3 messages), b (0 messages)",
      "sessions gone: a (1 messages)",
      "jobs gone: j1 scheduled true",
      "fake model Script: 0 turn(s) queued, 0 reply(ies) left in the current one → 1 turn(s) queued, 0 reply(ies) left in the current one",
      "model calls added: held on h1"
    ])
  })
})

describe("a play's end", () => {
  const scenario: Scenario = { version: 1, name: "leaves state", steps: [{ clock: { advance: 1 } }] } as Scenario
  const driver = (end: LiveDriver["end"]): LiveDriver => stubDriver({ end })
  const info = { kind: "gateway-process", pin: "0.19.0", real: true, clock: "running", description: "stub" } as const

  it("fails the play with what `end` found", async () => {
    const r = await Effect.runPromise(Effect.either(runScenario(liveTarget(info, driver(() => Effect.fail(new Error("sessions added: b")))), scenario)))
    expect(Either.isLeft(r) && r.left.reason).toBe("end: sessions added: b")
  })

  it("passes when `end` does", async () => {
    const r = await Effect.runPromise(runScenario(liveTarget(info, driver(() => Effect.void)), scenario))
    expect(r.steps).toHaveLength(1)
  })
})
