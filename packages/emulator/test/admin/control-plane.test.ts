import { Effect } from "effect"
import { connect } from "node:net"
import { describe, expect, it } from "vitest"
import { Emulator, layer, startEmulator } from "../../src/index.js"
import { rawRequest } from "../rawHttp.js"
import { ADMIN_HEADERS, API_KEY, dataEvents, openClients, readSse } from "../support.js"

const open = openClients()

describe("faults", () => {
  it("a status fault answers once with its envelope and changes nothing", async () => {
    const c = await open()
    await c.admin("/faults", { route: "runs.create", status: 503, body: { error: { message: "down", type: "server_error", param: null, code: null } } })
    const r = await c.request("POST", "/v1/runs", { body: { input: "hi" } })
    expect(r.status).toBe(503)
    expect(await r.json()).toEqual({ error: { message: "down", type: "server_error", param: null, code: null } })
    const state = (await (await fetch(`${c.emu.url}/__admin/state`, { headers: ADMIN_HEADERS })).json()) as Record<string, unknown>
    expect(state["runs"]).toBe(0)
    const journal = (await (await fetch(`${c.emu.url}/__admin/journal`, { headers: ADMIN_HEADERS })).json()) as { entries: Array<Record<string, unknown>> }
    expect(journal.entries.find((e) => e["operation"] === "runs.create")).toMatchObject({ status: 503, fault: "status 503" })
    expect((await c.request("POST", "/v1/runs", { body: { input: "hi" } })).status).toBe(202)
  })

  it("sticky faults stay until cleared; times counts down", async () => {
    const c = await open()
    await c.admin("/faults", { path: "/health", status: 500, sticky: true })
    for (let i = 0; i < 3; i++) expect((await c.request("GET", "/health")).status).toBe(500)
    await fetch(`${c.emu.url}/__admin/faults`, { method: "DELETE", headers: ADMIN_HEADERS })
    expect((await c.request("GET", "/health")).status).toBe(200)
    await c.admin("/faults", { path: "/health", status: 502, times: 2 })
    expect((await c.request("GET", "/health")).status).toBe(502)
    expect((await c.request("GET", "/health")).status).toBe(502)
    expect((await c.request("GET", "/health")).status).toBe(200)
  })

  it("a dropped response closes the connection without an answer", async () => {
    const c = await open()
    await c.admin("/faults", { route: "health", drop: true })
    await expect(c.request("GET", "/health")).rejects.toThrow()
    expect((await c.request("GET", "/health")).status).toBe(200)
  })

  it("latency delays the answer", async () => {
    const c = await open()
    await c.admin("/faults", { route: "health", latencyMs: 150 })
    const t = performance.now()
    expect((await c.request("GET", "/health")).status).toBe(200)
    expect(performance.now() - t).toBeGreaterThanOrEqual(140)
  })

  it("a mid-stream disconnect cuts the SSE stream after N frames", async () => {
    const c = await open()
    await c.script({ turns: [{ replies: [{ text: "abc", chunks: ["a", "b", "c"] }] }] })
    const { body } = await c.json("POST", "/v1/runs", { input: "hi" })
    await c.admin("/faults", { route: "runs.events", disconnectAfterFrames: 2 })
    const res = await c.request("GET", `/v1/runs/${String(body["run_id"])}/events`)
    const text = await res.text().catch(() => "")
    const events = dataEvents(text.split("\n\n").filter((f) => f !== ""))
    expect(events.length).toBeLessThanOrEqual(2)
    expect(events.every((e) => e["event"] === "message.delta")).toBe(true)
  })
})

describe("a mid-stream disconnect over a socket", () => {
  it("delivers exactly the N frames it allows, then the connection closes", async () => {
    const emu = await startEmulator({ apiKey: API_KEY })
    try {
      const auth = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" }
      await fetch(`${emu.url}/__admin/script`, { method: "POST", headers: ADMIN_HEADERS, body: JSON.stringify({ turns: [{ replies: [{ text: "abc", chunks: ["a", "b", "c"] }] }] }) })
      const run = (await (await fetch(`${emu.url}/v1/runs`, { method: "POST", headers: auth, body: '{"input":"hi"}' })).json()) as { run_id: string }
      await fetch(`${emu.url}/__admin/faults`, { method: "POST", headers: ADMIN_HEADERS, body: JSON.stringify({ route: "runs.events", disconnectAfterFrames: 2 }) })
      // a raw socket: everything the emulator wrote before it closed the connection
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(emu.port, "127.0.0.1", () =>
          socket.write(`GET /v1/runs/${run.run_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${API_KEY}\r\n\r\n`))
        let got = ""
        socket.on("data", (c: Buffer) => (got += c.toString("utf8")))
        socket.on("close", () => resolve(got))
        socket.on("error", reject)
      })
      expect(raw.startsWith("HTTP/1.1 200 OK")).toBe(true)
      const frames = raw.split("\n").filter((line) => line.startsWith("data: "))
      expect(frames).toHaveLength(2)
      expect(frames.every((f) => f.includes('"event": "message.delta"'))).toBe(true)
      // cut, not ended: no last chunk of the chunked body
      expect(raw.endsWith("0\r\n\r\n")).toBe(false)
    } finally {
      await emu.close()
    }
  })
})

describe("namespaces, journal, admin key", () => {
  it("namespaces do not see each other's runs, scripts or clocks", async () => {
    const a = await open({}, "a")
    {
      await a.script({ turns: [{ replies: [{ text: "only in a" }] }] })
      const run = (await a.json("POST", "/v1/runs", { input: "x" })).body
      const inB = await fetch(`${a.emu.url}/v1/runs/${String(run["run_id"])}`, {
        headers: { authorization: `Bearer ${API_KEY}`, "x-hermetic-namespace": "b" }
      })
      expect(inB.status).toBe(404)
      expect((await a.waitForStatus(String(run["run_id"]), ["completed"]))["output"]).toBe("only in a")
      const stateB = (await (await fetch(`${a.emu.url}/__admin/state`, { headers: { "x-hermetic-namespace": "b", ...ADMIN_HEADERS } })).json()) as Record<string, unknown>
      expect(stateB).toMatchObject({ namespace: "b", runs: 0, pending_turns: 0 })
    }
  })

  it("the journal keeps metadata only", async () => {
    const c = await open()
    await c.request("POST", "/v1/runs", { body: { input: "secret prompt" } })
    const j = (await (await fetch(`${c.emu.url}/__admin/journal`, { headers: ADMIN_HEADERS })).json()) as { entries: Array<Record<string, unknown>> }
    const entry = j.entries.find((e) => e["operation"] === "runs.create")
    expect(entry).toMatchObject({ method: "POST", path: "/v1/runs", status: 202 })
    expect(JSON.stringify(j)).not.toContain("secret prompt")
    expect(JSON.stringify(j)).not.toContain(API_KEY)
  })

  it("state counts the rows written to durable state: a refused request leaves it, a write moves it", async () => {
    const c = await open()
    const writes = async () => ((await (await fetch(`${c.emu.url}/__admin/state`, { headers: ADMIN_HEADERS })).json()) as { writes: number }).writes
    const start = await writes()
    expect((await c.request("PATCH", "/api/sessions/missing", { body: { title: "t" } })).status).toBe(404)
    expect((await c.request("GET", "/api/sessions")).status).toBe(200)
    expect(await writes()).toBe(start)
    expect((await c.request("POST", "/api/sessions", { body: { id: "counted" } })).status).toBe(201)
    expect(await writes()).toBeGreaterThan(start)
  })

  it("an admin key guards the control plane", async () => {
    const emu = await startEmulator({ adminKey: "adm-key-0123456789abcdef" })
    try {
      expect((await fetch(`${emu.url}/__admin/state`)).status).toBe(401)
      expect((await fetch(`${emu.url}/__admin/state`, { headers: { "x-hermetic-admin-key": "adm-key-0123456789abcdef" } })).status).toBe(200)
    } finally {
      await emu.close()
    }
  })

  it("a web page cannot drive it: foreign Origin or Host, a non-JSON body, or no key are refused and change nothing", async () => {
    const c = await open()
    await c.script({ turns: [{ replies: [{ text: "kept" }] }] })
    // node:http, as fetch will not send a Host header of our choosing
    const post = (headers: Record<string, string>) => rawRequest(c.emu.url, "POST", "/__admin/reset", headers, "{}")
    const refusals: Array<[Record<string, string>, number]> = [
      [{ ...ADMIN_HEADERS, origin: "http://evil.example" }, 403],
      [{ ...ADMIN_HEADERS, origin: "null" }, 403],
      [{ ...ADMIN_HEADERS, host: "evil.example" }, 403],
      [{ ...ADMIN_HEADERS, host: "127.0.0.1.evil.example:80" }, 403],
      [{ ...ADMIN_HEADERS, "content-type": "text/plain" }, 415],
      [{ "x-hermetic-admin-key": API_KEY }, 415],
      [{ "content-type": "application/json" }, 401],
      [{ "content-type": "application/json", "x-hermetic-admin-key": "wrong" }, 401],
      [{ "content-type": "application/json", authorization: "Bearer wrong" }, 401]
    ]
    for (const [headers, status] of refusals) {
      const r = await post(headers)
      expect([headers, r.status]).toEqual([headers, status])
      expect((JSON.parse(r.body) as { error: { type: string } }).error.type).toBe("hermetic_admin_error")
    }
    const state = async () => (await (await fetch(`${c.emu.url}/__admin/state`, { headers: ADMIN_HEADERS })).json()) as Record<string, unknown>
    expect((await state())["pending_turns"]).toBe(1)
    // loopback origins and hosts, and the API key as a Bearer token, are accepted
    for (const headers of [
      { ...ADMIN_HEADERS, origin: "http://localhost:3000", host: "localhost:8642" },
      { "content-type": "application/json; charset=utf-8", authorization: `Bearer ${API_KEY}`, host: "[::1]:1" }
    ]) {
      expect((await post(headers)).status).toBe(200)
    }
    expect((await state())["pending_turns"]).toBe(0)
    expect((await fetch(`${c.emu.url}/__admin/state`, { headers: { ...ADMIN_HEADERS, origin: "https://evil.example" } })).status).toBe(403)
  })

  it("with no key set it is open to loopback JSON requests only", async () => {
    const c = await open({ apiKey: "" })
    expect((await fetch(`${c.emu.url}/__admin/reset`, { method: "POST", headers: { "content-type": "application/json" } })).status).toBe(200)
    expect((await fetch(`${c.emu.url}/__admin/reset`, { method: "POST", headers: { "content-type": "text/plain", origin: "http://evil.example" } })).status).toBe(403)
    expect((await fetch(`${c.emu.url}/__admin/reset`, { method: "POST", headers: { "content-type": "text/plain" } })).status).toBe(415)
  })

  it("bad input is a 400, never a 500: percent-escapes, deep nesting, faults a socket cannot send", async () => {
    const c = await open()
    const adminRaw = (path: string, body: string) =>
      fetch(`${c.emu.url}/__admin${path}`, { method: "POST", headers: ADMIN_HEADERS, body })
    expect((await adminRaw("/holds/%u0041/release", "{}")).status).toBe(400)
    expect((await adminRaw("/holds/%E0%A4%A/release", "{}")).status).toBe(400)
    const deep = "[".repeat(5000) + "]".repeat(5000)
    for (const path of ["/clock", "/faults", "/drain", "/script"]) {
      expect([path, (await adminRaw(path, deep)).status]).toEqual([path, 400])
      expect([path, (await adminRaw(path, `{"set": ${deep}}`)).status]).toEqual([path, 400])
    }
    for (const fault of [{ status: 0 }, { status: -1 }, { status: 1000 }, { status: 200.5 }, { status: 503, headers: { "bad name": "x" } }, { status: 503, headers: { "x-a": "line\nbreak" } }, { latencyMs: -5 }, { times: 1.5 }]) {
      const r = await c.admin("/faults", fault)
      expect([fault, r.status]).toEqual([fault, 400])
    }
    expect((await c.request("GET", "/health")).status).toBe(200)
    expect((await (await fetch(`${c.emu.url}/__admin/faults`, { headers: ADMIN_HEADERS })).json())).toEqual({ faults: [] })
  })

  it("rejects a malformed Script with a message saying what is wrong", async () => {
    const c = await open()
    const r = await c.admin("/script", { turns: [{ replies: "nope" }] })
    expect(r.status).toBe(400)
    expect(JSON.stringify(await r.json())).toContain("invalid Script")
  })

  it("reset clears runs, script and clock of the namespace", async () => {
    const c = await open()
    await c.script({ turns: [{ replies: [{ text: "queued" }] }] })
    await c.admin("/clock", { advance: 1000 })
    const run = (await c.json("POST", "/v1/runs", { input: "x" })).body
    await c.waitForStatus(String(run["run_id"]), ["completed"])
    await c.admin("/reset")
    expect((await c.json("GET", `/v1/runs/${String(run["run_id"])}`)).status).toBe(404)
    const state = (await (await fetch(`${c.emu.url}/__admin/state`, { headers: ADMIN_HEADERS })).json()) as Record<string, unknown>
    expect(state["pending_turns"]).toBe(0)
    expect(Math.abs(Number(state["now"]) - Date.now() / 1000)).toBeLessThan(100)
  })
})

describe("Emulator.layer in process", () => {
  it("serves the whole surface through fetch with no socket", async () => {
    const program = Effect.gen(function*() {
      const emu = yield* Emulator
      const script = yield* Effect.promise(() =>
        emu.fetch("http://emulator/__admin/script", { method: "POST", headers: ADMIN_HEADERS, body: JSON.stringify({ turns: [{ replies: [{ text: "in process", chunks: ["in ", "process"] }] }] }) })
      )
      expect(script.status).toBe(200)
      const admitted = yield* Effect.promise(() =>
        emu.fetch("http://emulator/v1/runs", { method: "POST", headers: { authorization: `Bearer ${API_KEY}` }, body: JSON.stringify({ input: "hi" }) }).then((r) => r.json() as Promise<Record<string, unknown>>)
      )
      const events = yield* Effect.promise(() =>
        emu.fetch(`http://emulator/v1/runs/${String(admitted["run_id"])}/events`, { headers: { authorization: `Bearer ${API_KEY}` } }).then(readSse)
      )
      return dataEvents(events)
    })
    const events = await Effect.runPromise(Effect.scoped(Effect.provide(program, layer({ apiKey: API_KEY, hermesVersion: "0.19.0" }))))
    expect(events.map((e) => e["event"])).toEqual(["message.delta", "message.delta", "reasoning.available", "run.completed"])
    expect(events[3]?.["output"]).toBe("in process")
  })
})

describe("the control plane's router", () => {
  it("answers 404 naming the method and the command for a path no command has, or a command's other method", async () => {
    const c = await open()
    const unknown = await c.admin("/nope", {})
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ error: { message: "unknown admin route: POST /nope", type: "hermetic_admin_error" } })
    const otherMethod = await fetch(`${c.emu.url}/__admin/clock`, { method: "PUT", headers: ADMIN_HEADERS, body: "{}" })
    expect(otherMethod.status).toBe(404)
    expect(await otherMethod.json()).toEqual({ error: { message: "unknown admin route: PUT /clock", type: "hermetic_admin_error" } })
  })
})
