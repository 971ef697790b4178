/**
 * Discovery routes, black-box over HTTP, held to what the real 0.19.0 gateway answered
 * (evidence/cassette-sources/live/discovery-0.19.0.md) and to the 0.21.0 reference notes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { API_KEY, type Client, startClient } from "../support.js"
import { recorded } from "../liveEvidence.js"
import { rawRequest, semanticHeaders } from "../rawHttp.js"

const EVIDENCE = "discovery-0.19.0.md"
const auth = { authorization: `Bearer ${API_KEY}` }

/** The real gateway's answer: headers (transport ones aside) and body, byte for byte. */
const expectSameAsRecorded = async (
  c: Client,
  title: string,
  method: string,
  path: string,
  headers: Readonly<Record<string, string>> = auth
) => {
  const real = recorded(EVIDENCE, title)
  const emu = await rawRequest(c.emu.url, method, path, headers)
  expect(emu.status).toBe(real.status)
  expect(semanticHeaders(emu.headers)).toEqual(semanticHeaders(real.headers))
  expect(emu.body).toBe(real.body)
}

describe("discovery on 0.19.0 matches the recorded real gateway", () => {
  let c: Client
  beforeAll(async () => {
    c = await startClient({ hermesVersion: "0.19.0" })
  })
  afterAll(() => c.emu.close())

  it("capabilities, skills and toolsets are byte-identical", async () => {
    await expectSameAsRecorded(c, "GET /v1/capabilities", "GET", "/v1/capabilities")
    await expectSameAsRecorded(c, "GET /v1/skills", "GET", "/v1/skills")
    await expectSameAsRecorded(c, "GET /v1/toolsets", "GET", "/v1/toolsets")
  })

  it("auth failures, the absent model-options route, 405 and the CORS 403 are byte-identical", async () => {
    await expectSameAsRecorded(c, "GET /health/detailed without a key", "GET", "/health/detailed", {})
    await expectSameAsRecorded(c, "GET /v1/models with a wrong key", "GET", "/v1/models", {
      authorization: "Bearer wrong-key-0123456789abcdef"
    })
    await expectSameAsRecorded(c, "GET /v1/toolsets without a key", "GET", "/v1/toolsets", {})
    await expectSameAsRecorded(c, "GET /api/model/options (absent at 0.19.0)", "GET", "/api/model/options")
    await expectSameAsRecorded(c, "POST /v1/models (405)", "POST", "/v1/models")
    await expectSameAsRecorded(c, "GET /v1/models from a disallowed Origin (CORS 403)", "GET", "/v1/models", {
      ...auth,
      origin: "http://evil.example"
    })
  })

  it("health/detailed has the real shape; host-dependent values are the documented constants", async () => {
    const real = JSON.parse(recorded(EVIDENCE, "GET /health/detailed").body) as Record<string, unknown>
    const res = await c.json("GET", "/health/detailed")
    expect(res.status).toBe(200)
    const body = res.body
    expect(Object.keys(body)).toEqual(Object.keys(real))
    expect(JSON.stringify(Object.keys(body["readiness"] as object))).toBe(JSON.stringify(Object.keys(real["readiness"] as object)))
    const keysDeep = (v: unknown): unknown =>
      typeof v === "object" && v !== null ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, keysDeep(x)])) : typeof v
    expect(keysDeep(body)).toEqual(keysDeep(real))
    expect(body["pid"]).toBe(4242)
    expect(body["version"]).toBe("0.19.0")
    expect(body["gateway_state"]).toBe("running")
  })

  it("models: created is the namespace clock's int; the profile prefix is ignored", async () => {
    const real = recorded(EVIDENCE, "GET /p/other/v1/models (0.19.0 ignores the profile prefix)")
    const created = (JSON.parse(real.body) as { data: Array<{ created: number }> }).data[0]?.created ?? 0
    await c.admin("/clock", { set: created + 0.75 })
    await c.admin("/clock", { freeze: true })
    const emu = await rawRequest(c.emu.url, "GET", "/p/other/v1/models", auth)
    expect(emu.status).toBe(200)
    expect(emu.body).toBe(real.body)
    await c.admin("/clock", { freeze: false })
  })

  it("active_api_runs counts runs in flight, not chat turns", async () => {
    await c.script({ turns: [{ replies: [{ hold: "hd-1", text: "late" }] }] })
    const run = await c.json("POST", "/v1/runs", { input: "held" })
    await c.waitForStatus(String(run.body["run_id"]), ["running"])
    const busy = await c.json("GET", "/health/detailed")
    const checks = (busy.body["readiness"] as Record<string, Record<string, Record<string, unknown>>>)["checks"]
    expect(checks?.["background_queues"]?.["active_api_runs"]).toBe(1)
    expect(busy.body["active_agents"]).toBe(0)
    await c.release("hd-1")
    await c.waitForStatus(String(run.body["run_id"]), ["completed"])
    const idle = await c.json("GET", "/health/detailed")
    const after = (idle.body["readiness"] as Record<string, Record<string, Record<string, unknown>>>)["checks"]
    expect(after?.["background_queues"]?.["active_api_runs"]).toBe(0)
    // the process has now run an agent turn: toolsets list the lazily registered tools
    await expectSameAsRecorded(c, "GET /v1/toolsets after the first agent turn", "GET", "/v1/toolsets")
  })

  it("gateway_busy: running with a persisted active_agents above 0, as a drain that ended with a run in flight leaves it", async () => {
    const fresh = await startClient({ hermesVersion: "0.19.0" })
    try {
      await fresh.script({ turns: [{ replies: [{ hold: "busy-1", text: "late" }] }] })
      const run = await fresh.json("POST", "/v1/runs", { input: "held" })
      await fresh.waitForStatus(String(run.body["run_id"]), ["running"])
      expect((await fresh.json("GET", "/health/detailed")).body["gateway_busy"]).toBe(false)
      await fresh.admin("/drain", { draining: true })
      const draining = (await fresh.json("GET", "/health/detailed")).body
      expect([draining["gateway_state"], draining["active_agents"], draining["gateway_busy"]]).toEqual(["draining", 1, false])
      await fresh.admin("/drain", { draining: false })
      const after = (await fresh.json("GET", "/health/detailed")).body
      expect([after["gateway_state"], after["active_agents"], after["gateway_busy"]]).toEqual(["running", 1, true])
      await fresh.release("busy-1")
    } finally {
      await fresh.emu.close()
    }
  })
})

describe("discovery options", () => {
  it("model name precedence: explicit name, then a non-default profile, then hermes-agent; routes are listed", async () => {
    const named = await startClient({ hermesVersion: "0.19.0", modelName: "  my-agent ", profileName: "work" })
    const byProfile = await startClient({ hermesVersion: "0.19.0", profileName: "work" })
    const custom = await startClient({
      hermesVersion: "0.19.0",
      profileName: "custom",
      modelRoutes: { fast: { model: "small-model", provider: "openrouter" }, "hermes-agent": { model: "ignored" } }
    })
    try {
      const ids = async (c: Client) => ((await c.json("GET", "/v1/models")).body["data"] as Array<Record<string, unknown>>)
      expect((await ids(named)).map((m) => m["id"])).toEqual(["my-agent"])
      expect((await ids(byProfile)).map((m) => m["id"])).toEqual(["work"])
      const routed = await ids(custom)
      expect(routed.map((m) => [m["id"], m["root"], m["parent"]])).toEqual([
        ["hermes-agent", "hermes-agent", null],
        ["fast", "small-model", "hermes-agent"]
      ])
      const caps = await custom.json("GET", "/v1/capabilities")
      expect(caps.body["model"]).toBe("hermes-agent")
    } finally {
      await Promise.all([named.emu.close(), byProfile.emu.close(), custom.emu.close()])
    }
  })

  it("enabledToolsets and skills are served; capabilities report cors and auth", async () => {
    const skill = { name: "demo", description: "a skill", category: "testing" }
    const c = await startClient({
      hermesVersion: "0.19.0",
      enabledToolsets: ["todo", "web"],
      skills: [skill],
      corsOrigins: "http://app.example"
    })
    try {
      const toolsets = (await c.json("GET", "/v1/toolsets")).body["data"] as Array<Record<string, unknown>>
      expect(toolsets.filter((t) => t["enabled"] === true).map((t) => t["name"])).toEqual(["web", "todo"])
      expect((await c.json("GET", "/v1/skills")).body).toEqual({ object: "list", data: [skill] })
      const caps = (await c.json("GET", "/v1/capabilities")).body
      expect((caps["features"] as Record<string, unknown>)["cors"]).toBe(true)
      const allowed = await c.request("GET", "/v1/models", { headers: { origin: "http://app.example" } })
      expect(allowed.status).toBe(200)
      expect(allowed.headers.get("access-control-allow-origin")).toBe("http://app.example")
      expect(allowed.headers.get("vary")).toBe("Origin")
      const preflight = await c.request("OPTIONS", "/v1/chat/completions", { headers: { origin: "http://app.example" } })
      expect(preflight.status).toBe(200)
      expect(preflight.headers.get("access-control-max-age")).toBe("600")
    } finally {
      await c.emu.close()
    }
  })

  it("without a key, auth is not required and capabilities say so", async () => {
    const c = await startClient({ hermesVersion: "0.19.0", apiKey: "" })
    try {
      const res = await c.request("GET", "/v1/capabilities", { auth: "none" })
      expect(res.status).toBe(200)
      expect(((await res.json()) as { auth: unknown }).auth).toEqual({ type: "bearer", required: false })
    } finally {
      await c.emu.close()
    }
  })
})

describe("discovery on 0.21.0 (reference notes)", () => {
  let c: Client
  beforeAll(async () => {
    c = await startClient({ hermesVersion: "0.21.0", profileName: "default" })
  })
  afterAll(() => c.emu.close())

  it("capabilities add the 0.21.0 features and endpoints in upstream's order", async () => {
    const caps = (await c.json("GET", "/v1/capabilities")).body
    const features = caps["features"] as Record<string, unknown>
    const keys = Object.keys(features)
    expect(keys.slice(0, 7)).toEqual([
      "chat_completions",
      "chat_completions_streaming",
      "responses_api",
      "responses_streaming",
      "run_submission",
      "runs_idempotency",
      "run_status"
    ])
    expect(features["runs_idempotency"]).toEqual({ supported: true, durable: false, retention_seconds: 86400 })
    expect(keys.indexOf("run_steer")).toBe(keys.indexOf("run_stop") + 1)
    expect(keys.indexOf("model_options")).toBe(keys.indexOf("session_resources") + 1)
    expect(keys[keys.length - 1]).toBe("browser_extension_control")
    const endpoints = caps["endpoints"] as Record<string, unknown>
    expect(endpoints["model_options"]).toEqual({ method: "GET", path: "/api/model/options" })
    expect(Object.keys(endpoints).slice(-4)).toEqual(["browser_control_register", "browser_control_ws", "artifact_upload", "artifact_download"])
  })

  it("the 401 uses the 0.21.0 envelope; /api/model/options answers the picker shape", async () => {
    const denied = await c.request("GET", "/v1/models", { auth: "wrong" })
    expect(denied.status).toBe(401)
    expect(await denied.json()).toEqual({
      error: { message: "Invalid gateway API key (API_SERVER_KEY)", type: "gateway_auth_error", code: "gateway_auth_failed" }
    })
    const options = await c.json("GET", "/api/model/options?refresh=1")
    expect(options.status).toBe(200)
    expect(Object.keys(options.body)).toEqual(["providers", "model", "provider"])
  })

  it("a /p/<own profile>/ prefix re-resolves the model name; another profile is 404", async () => {
    const own = await c.json("GET", "/p/default/v1/models")
    expect((own.body["data"] as Array<Record<string, unknown>>)[0]?.["id"]).toBe("hermes-agent")
    const other = await c.request("GET", "/p/other/v1/models")
    expect(other.status).toBe(404)
    expect(await other.json()).toEqual({ error: "Unknown or unconfigured profile" })
  })
})
