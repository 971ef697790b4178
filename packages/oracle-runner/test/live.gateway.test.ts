/**
 * The real pinned 0.19.0 gateway, started with the process launcher, plays a scripted chat
 * completion and a scripted run. Takes about half a minute with a cached venv (a minute or two
 * cold), so it runs only with HERMETIC_LIVE=1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { GatewayHandle } from "../src/gateway/Gateway.js"
import { startGateway } from "../src/gateway/GatewayResource.js"

const live = process.env["HERMETIC_LIVE"] === "1"
if (!live) console.log("[skip] live gateway tests: set HERMETIC_LIVE=1 to start the real Hermes 0.19.0 gateway (needs python3.11 and PyPI or a cached venv)")

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe.skipIf(!live)("real Hermes 0.19.0 gateway (process launcher)", () => {
  let gw: GatewayHandle
  const auth = () => ({ authorization: `Bearer ${gw.apiKey}`, "content-type": "application/json" })
  const getRun = async (id: string) => (await (await fetch(`${gw.baseUrl}/v1/runs/${id}`, { headers: auth() })).json()) as Record<string, unknown>

  beforeAll(async () => {
    gw = await startGateway({ pin: "0.19.0", launcher: "process", progress: (l) => console.log(l) })
  }, 600_000)
  afterAll(async () => {
    await gw?.stop()
  }, 60_000)

  it("answers /health without a key and 401 without one on /v1/models", async () => {
    const h = await fetch(`${gw.baseUrl}/health`)
    expect(h.status).toBe(200)
    expect(await h.json()).toEqual({ status: "ok", platform: "hermes-agent", version: "0.19.0" })
    expect((await fetch(`${gw.baseUrl}/v1/models`)).status).toBe(401)
  })

  it("plays a scripted chat completion through the real agent loop", async () => {
    gw.script({ turns: [{ replies: [{ text: "Hello there", chunks: ["Hel", "lo there"], usage: { prompt_tokens: 12, completion_tokens: 3 } }] }] })
    const before = gw.journal().length
    const r = await fetch(`${gw.baseUrl}/v1/chat/completions`, {
      method: "POST",
      headers: auth(),
      body: JSON.stringify({ model: "hermes-agent", messages: [{ role: "user", content: "live chat test" }] })
    })
    expect(r.status).toBe(200)
    const body = (await r.json()) as { object: string; choices: Array<{ message: { content: string }; finish_reason: string }>; usage: Record<string, number> }
    expect(body.object).toBe("chat.completion")
    expect(body.choices[0]?.message.content).toBe("Hello there")
    expect(body.choices[0]?.finish_reason).toBe("stop")
    expect(body.usage).toEqual({ prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 })
    const calls = gw.journal().slice(before).filter((e) => e.kind === "main" || e.kind === "housekeeping")
    // One streamed main call; Hermes streams to the model even for a non-streaming client request.
    expect(calls.map((c) => [c.kind, c.stream, c.lastUser])).toEqual([["main", true, "live chat test"]])
  })

  it("plays a scripted run: held → running, released → completed with the scripted output", async () => {
    gw.script({ turns: [{ replies: [{ hold: "live-h1", text: "late answer", usage: { prompt_tokens: 7, completion_tokens: 2 } }] }] })
    const r = await fetch(`${gw.baseUrl}/v1/runs`, { method: "POST", headers: auth(), body: JSON.stringify({ input: "live run test" }) })
    expect(r.status).toBe(202)
    const { run_id, status } = (await r.json()) as { run_id: string; status: string }
    expect(status).toBe("started")
    expect(run_id).toMatch(/^run_[0-9a-f]{32}$/)
    // Wait until the model call is actually held, then the run must be running.
    for (let i = 0; i < 100 && !gw.journal().some((e) => e.hold === "live-h1"); i++) await sleep(100)
    expect(gw.journal().find((e) => e.hold === "live-h1")?.outcome).toBe("held")
    expect((await getRun(run_id))["status"]).toBe("running")
    await sleep(500)
    expect((await getRun(run_id))["status"]).toBe("running")
    gw.release("live-h1")
    let final: Record<string, unknown> = {}
    for (let i = 0; i < 100; i++) {
      final = await getRun(run_id)
      if (final["status"] !== "running") break
      await sleep(100)
    }
    expect(final["status"]).toBe("completed")
    expect(final["output"]).toBe("late answer")
    expect(final["usage"]).toEqual({ input_tokens: 7, output_tokens: 2, total_tokens: 9 })
    expect(final["object"]).toBe("hermes.run")
  })

  it("survives a crash: SIGKILL and restart on the same HERMES_HOME", async () => {
    await gw.crash()
    expect((await fetch(`${gw.baseUrl}/health`)).status).toBe(200)
    gw.script({ turns: [{ replies: [{ text: "after crash" }] }] })
    const r = await fetch(`${gw.baseUrl}/v1/chat/completions`, {
      method: "POST",
      headers: auth(),
      body: JSON.stringify({ model: "hermes-agent", messages: [{ role: "user", content: "still there?" }] })
    })
    expect(((await r.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content).toBe("after crash")
  }, 120_000)

  it("restarts through the fake model's control plane, as the emulator's /__admin/restart does: runs kept in memory are gone", async () => {
    gw.script({ turns: [{ replies: [{ text: "before restart" }] }] })
    const { run_id } = (await (await fetch(`${gw.baseUrl}/v1/runs`, { method: "POST", headers: auth(), body: JSON.stringify({ input: "restart me" }) })).json()) as { run_id: string }
    for (let i = 0; i < 100 && (await getRun(run_id))["status"] === "running"; i++) await sleep(100)
    expect((await getRun(run_id))["status"]).toBe("completed")
    const r = await fetch(`${gw.fakeModelUrl}/__admin/restart`, { method: "POST", headers: { "content-type": "application/json" } })
    expect([r.status, await r.json()]).toEqual([200, { restarted: true }])
    expect((await fetch(`${gw.baseUrl}/health`)).status).toBe(200)
    expect((await fetch(`${gw.baseUrl}/v1/runs/${run_id}`, { headers: auth() })).status).toBe(404)
  }, 120_000)
})

describe.skipIf(!live)("real Hermes 0.19.0 gateway under libfaketime", () => {
  let gw: GatewayHandle
  const START = 1_893_456_000 // 2030-01-01T00:00:00Z
  const auth = () => ({ authorization: `Bearer ${gw.apiKey}`, "content-type": "application/json" })

  beforeAll(async () => {
    gw = await startGateway({ pin: "0.19.0", launcher: "process", clock: { start: START } })
  }, 600_000)
  afterAll(async () => {
    await gw?.stop()
  }, 60_000)

  it("reports the faked time and drops a terminal run after the clock jumps past 1 h", async () => {
    gw.script({ turns: [{ replies: [{ text: "timed" }] }] })
    const { run_id } = (await (await fetch(`${gw.baseUrl}/v1/runs`, { method: "POST", headers: auth(), body: JSON.stringify({ input: "clock" }) })).json()) as { run_id: string }
    let s: Record<string, unknown> = {}
    for (let i = 0; i < 100; i++) {
      s = (await (await fetch(`${gw.baseUrl}/v1/runs/${run_id}`, { headers: auth() })).json()) as Record<string, unknown>
      if (s["status"] !== "running") break
      await sleep(100)
    }
    expect(s["status"]).toBe("completed")
    const created = Number(s["created_at"])
    expect(created).toBeGreaterThanOrEqual(START)
    expect(created).toBeLessThan(START + 120)
    // One jump past the 3600 s status TTL: the monotonic clock jumps too, so the sweeper's 60 s
    // sleep ends at once and the terminal status is dropped.
    // through the fake model's control plane (the emulator's contract): it moves the gateway's faketime clock
    const moved = await fetch(`${gw.fakeModelUrl}/__admin/clock`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ advance: 3700 }) })
    expect(moved.status).toBe(200)
    expect(((await moved.json()) as { now: number }).now).toBeGreaterThanOrEqual(START + 3700)
    let status = 200
    for (let i = 0; i < 50 && status === 200; i++) {
      await sleep(200)
      status = (await fetch(`${gw.baseUrl}/v1/runs/${run_id}`, { headers: auth() })).status
    }
    expect(status).toBe(404)
  }, 60_000)
})
