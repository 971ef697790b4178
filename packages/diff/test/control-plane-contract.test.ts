/**
 * The control-plane contract of @hermetic/script, held by both implementations: the same five
 * requests against the emulator (over its fetch) and the fake model (over HTTP, with gateway
 * controls attached as the oracle runner attaches them) answer with the contract's Schemas, and
 * the same bad requests are refused with the same error shape.
 */
import { startEmulator } from "@hermetic/emulator"
import { startFakeModel } from "@hermetic/oracle-runner"
import { AdminError, ClockMoved, HoldReleased, ReceivedCalls, ResetDone, Restarted, ScriptAppended } from "@hermetic/script"
import { Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"

type Post = (path: string, body?: unknown) => Promise<{ readonly status: number; readonly body: unknown }>
const poster = (base: string): Post => async (path, body) => {
  const res = await fetch(`${base}/__admin${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) })
  })
  return { status: res.status, body: await res.json() }
}

const decodes = <A, I>(schema: Schema.Schema<A, I>, value: unknown): A => Schema.decodeUnknownSync(schema)(value)

/** Plays the contract against one implementation; returns what it answered, for comparing both. */
const playContract = async (post: Post) => {
  const script = { turns: [{ replies: [{ text: "a" }] }, { replies: [{ text: "b" }] }] }
  const appended = await post("/script", script)
  const released = await post("/holds/h%201/release")
  const clockSet = await post("/clock", { set: 1_900_000_000 })
  const clockAdvanced = await post("/clock", { advance: 60 })
  const restarted = await post("/restart")
  const reset = await post("/reset")
  const badScript = await post("/script", { turns: [{ replies: [{ text: 5 }] }] })
  const notJson = await post("/script", "{")
  const badClock = await post("/clock", { jump: 1 })
  const unknown = await post("/nothing-here")
  expect([appended, released, clockSet, clockAdvanced, restarted, reset].map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200])
  expect(decodes(ScriptAppended, appended.body)).toEqual({ appended: 2, pendingTurns: 2 })
  expect(decodes(HoldReleased, released.body)).toEqual({ hold: "h 1", releasedCalls: 0 })
  expect(decodes(ClockMoved, clockSet.body).now).toBeCloseTo(1_900_000_000, 0)
  expect(decodes(ClockMoved, clockAdvanced.body).now).toBeCloseTo(1_900_000_060, 0)
  decodes(Restarted, restarted.body)
  decodes(ResetDone, reset.body)
  expect([badScript.status, notJson.status, badClock.status, unknown.status]).toEqual([400, 400, 400, 404])
  for (const r of [badScript, notJson, badClock, unknown]) decodes(AdminError, r.body)
  return { appended: appended.body, released: released.body, restarted: restarted.body, reset: reset.body }
}

describe("the control-plane contract", () => {
  it("is answered alike by the emulator and by the fake model with a gateway attached", async () => {
    const emu = await startEmulator({})
    const fm = await startFakeModel()
    try {
      // stand-ins for the gateway's libfaketime clock and process restart (the runner attaches the real ones)
      let now = 1_800_000_000
      let restarts = 0
      fm.attachGateway({
        clock: { now: () => now, set: (s) => Effect.sync(() => void (now = s)), advance: (s) => Effect.sync(() => void (now += s)) },
        restart: Effect.sync(() => void restarts++)
      })
      const fromEmulator = await playContract(poster(emu.url))
      const fromFakeModel = await playContract(poster(fm.url))
      expect(fromFakeModel).toEqual(fromEmulator)
      expect(restarts).toBe(1)
    } finally {
      await fm.close()
      await emu.close()
    }
  })

  it("says why the fake model cannot move a clock or restart without a gateway, and refuses to freeze one", async () => {
    const fm = await startFakeModel()
    try {
      const post = poster(fm.url)
      expect((await post("/clock", { advance: 1 })).status).toBe(409)
      expect((await post("/restart")).status).toBe(409)
      fm.attachGateway({ clock: { now: () => 0, set: () => Effect.void, advance: () => Effect.void } })
      const freeze = await post("/clock", { freeze: true })
      expect(freeze.status).toBe(400)
      expect(decodes(AdminError, freeze.body).error.message).toMatch(/cannot be frozen/)
    } finally {
      await fm.close()
    }
  })

  it("refuses on the fake model, with a reason, a Script conditioned on what only the emulator sees; the emulator plays it", async () => {
    const emu = await startEmulator({})
    const fm = await startFakeModel()
    try {
      const script = { turns: [{ when: { operation: "runs.create", sessionId: "s" }, replies: [{ text: "x" }] }] }
      const onEmulator = await poster(emu.url)("/script", script)
      const onFakeModel = await poster(fm.url)("/script", script)
      expect(onEmulator).toEqual({ status: 200, body: { appended: 1, pendingTurns: 1 } })
      expect(onFakeModel.status).toBe(400)
      expect(decodes(AdminError, onFakeModel.body).error.message).toMatch(/cannot see when\.operation, when\.sessionId/)
      expect(() => fm.appendScript(script as never)).toThrow(/cannot see when\.operation/)
      // what both can see is accepted by both
      const seen = { turns: [{ when: { lastUserMessage: { contains: "x" }, model: "hermetic-fake-model" }, replies: [{ text: "x" }] }] }
      expect((await poster(fm.url)("/script", seen)).body).toEqual({ appended: 1, pendingTurns: 1 })
      expect((await poster(emu.url)("/script", seen)).body).toEqual({ appended: 1, pendingTurns: 2 })
    } finally {
      await fm.close()
      await emu.close()
    }
  })
})

describe("GET /__admin/model-calls", () => {
  it("the fake model logs each call with the messages exactly as Hermes sent them, and a reset forgets them", async () => {
    const fm = await startFakeModel()
    try {
      await fetch(`${fm.url}/__admin/script`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ turns: [{ replies: [{ text: "a" }] }] }) })
      const messages = [
        { role: "system", content: "core" },
        { role: "user", content: "q" },
        { role: "assistant", content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "t", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "c1", name: "t", content: "r" }
      ]
      const chat = await fetch(`${fm.baseUrl}/chat/completions`, { method: "POST", body: JSON.stringify({ model: "m", messages }) })
      expect(chat.status).toBe(200)
      const read = async () => Schema.decodeUnknownSync(ReceivedCalls)(await (await fetch(`${fm.url}/__admin/model-calls`)).json())
      expect(await read()).toEqual({ calls: [{ kind: "main", messages }] })
      expect(fm.receivedCalls()).toEqual([{ kind: "main", messages }])
      expect((await fetch(`${fm.url}/__admin/reset`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(200)
      expect(await read()).toEqual({ calls: [] })
    } finally {
      await fm.close()
    }
  })

  it("the emulator answers the same schema with the API messages its agent sent", async () => {
    const emu = await startEmulator({})
    try {
      await fetch(`${emu.url}/__admin/script`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ turns: [{ replies: [{ text: "a" }] }] }) })
      await fetch(`${emu.url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ messages: [{ role: "user", content: "q" }] }) })
      const read = Schema.decodeUnknownSync(ReceivedCalls)(await (await fetch(`${emu.url}/__admin/model-calls`)).json())
      expect(read.calls.map((c) => [c.kind, c.messages.length, c.messages.at(-1)])).toEqual([["main", 2, { role: "user", content: "q" }]])
    } finally {
      await emu.close()
    }
  })
})
