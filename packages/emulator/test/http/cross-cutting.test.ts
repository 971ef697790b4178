import * as net from "node:net"
import { describe, expect, it } from "vitest"
import { features, routesFor, startEmulator } from "../../src/index.js"
import { API_KEY, openClients } from "../support.js"

const open = openClients()

const SECURITY = {
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
  "strict-transport-security": "max-age=31536000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "x-xss-protection": "0",
  "referrer-policy": "no-referrer"
}
const hasSecurityHeaders = (h: Headers) => Object.entries(SECURITY).every(([k, v]) => h.get(k) === v)

describe("auth", () => {
  it.each([
    ["0.19.0", { message: "Invalid API key", type: "invalid_request_error", code: "invalid_api_key" }],
    ["0.21.0", { message: "Invalid gateway API key (API_SERVER_KEY)", type: "gateway_auth_error", code: "gateway_auth_failed" }]
  ] as const)("%s answers a missing or wrong key with its 401 envelope and security headers", async (pin, error) => {
    const c = await open({ hermesVersion: pin })
    for (const auth of ["none", "wrong"] as const) {
      for (const [method, path] of [["GET", "/v1/runs/run_x"], ["POST", "/v1/runs"], ["POST", "/v1/runs/run_x/stop"]] as const) {
        const r = await c.request(method, path, method === "GET" ? { auth } : { auth, body: "{not json" })
        expect(r.status).toBe(401)
        expect(await r.json()).toEqual({ error })
        expect(hasSecurityHeaders(r.headers)).toBe(true)
      }
    }
  })

  it("the route table's gate: every bearer route answers 401 without the key, public ones answer", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    const routes = routesFor(features("0.19.0"))
    expect(routes.filter((r) => r.auth === "public").map((r) => r.id)).toEqual(["health", "health.v1", "platforms.events"])
    for (const route of routes) {
      const path = route.path.replace(/\{\w+\}/g, "x")
      const r = await c.request(route.method, path, route.method === "GET" || route.method === "DELETE" ? { auth: "none" } : { auth: "none", body: "{}" })
      const text = await r.text()
      // a public route never gives the bearer gate's answer (platform events check their own signature)
      expect([route.id, r.status === 401 && text.includes("Invalid API key")]).toEqual([route.id, route.auth === "bearer"])
    }
  })

  it("bearer variants answer as the real 0.19.0 gateway (aiohttp's UTF-8 surrogateescape headers + Python strip; evidence/hardening/)", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    const key = Buffer.from(API_KEY)
    const b = (...parts: Array<string | Buffer | Array<number>>) =>
      Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : Buffer.isBuffer(p) ? p : Buffer.from(p))))
    const cases: Array<[string, ReadonlyArray<Buffer>, number]> = [
      ["exact", [b("Authorization: Bearer ", key)], 200],
      ["trailing space", [b("Authorization: Bearer ", key, " ")], 200],
      ["trailing tab", [b("Authorization: Bearer ", key, "\t")], 200],
      ["double space", [b("Authorization: Bearer  ", key)], 200],
      ["trailing UTF-8 no-break space", [b("Authorization: Bearer ", key, [0xc2, 0xa0])], 200],
      ["trailing lone 0xA0 byte", [b("Authorization: Bearer ", key, [0xa0])], 500],
      ["trailing lone 0x85 byte", [b("Authorization: Bearer ", key, [0x85])], 500],
      ["latin-1 suffix", [b("Authorization: Bearer ", key, [0xe9])], 500],
      ["UTF-8 suffix", [b("Authorization: Bearer ", key, [0xc3, 0xa9])], 401],
      ["two headers, good first", [b("Authorization: Bearer ", key), b("Authorization: Bearer wrong")], 200],
      ["two headers, good second", [b("Authorization: Bearer wrong"), b("Authorization: Bearer ", key)], 401],
      ["lower-case scheme", [b("Authorization: bearer ", key)], 401],
      ["tab after the scheme", [b("Authorization: Bearer\t", key)], 401],
      ["empty token", [b("Authorization: Bearer ")], 401]
    ]
    for (const [name, headers, status] of cases) {
      const head = b("GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n", ...headers.flatMap((h) => [h, "\r\n"]), "Connection: close\r\n\r\n")
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(c.emu.port, "127.0.0.1", () => socket.end(head))
        let text = ""
        socket.on("data", (d) => (text += d.toString("latin1")))
        socket.on("end", () => resolve(text))
        socket.on("error", reject)
      })
      expect([name, Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1])]).toEqual([name, status])
      // the 500 is aiohttp's own, outside the middlewares: no security headers
      if (status === 500) expect(answer).not.toContain("X-Frame-Options")
    }
  })

  it("health needs no key; the token is compared after stripping", async () => {
    const c = await open()
    expect((await c.request("GET", "/health", { auth: "none" })).status).toBe(200)
    expect((await c.request("GET", "/v1/health", { auth: "none" })).status).toBe(200)
    const r = await fetch(`${c.emu.url}/v1/runs/run_x`, { headers: { authorization: `Bearer   ${API_KEY}  ` } })
    expect(r.status).toBe(404)
    const lower = await fetch(`${c.emu.url}/v1/runs/run_x`, { headers: { authorization: `bearer ${API_KEY}` } })
    expect(lower.status).toBe(401)
  })

  it("without a key everything is allowed, but a session key header is refused with 403", async () => {
    const emu = await startEmulator({})
    try {
      expect((await fetch(`${emu.url}/v1/runs`, { method: "POST", body: JSON.stringify({ input: "hi" }) })).status).toBe(202)
      const r = await fetch(`${emu.url}/v1/runs`, { method: "POST", headers: { "x-hermes-session-key": "k" }, body: JSON.stringify({ input: "hi" }) })
      expect(r.status).toBe(403)
      expect(await r.json()).toEqual({
        error: { message: "X-Hermes-Session-Key requires API key authentication. Configure API_SERVER_KEY to enable this feature.", type: "invalid_request_error", param: null, code: null }
      })
    } finally {
      await emu.close()
    }
  })
})

describe("session key header", () => {
  it("is stripped, validated and echoed on admission", async () => {
    const c = await open()
    const ok = await c.request("POST", "/v1/runs", { body: { input: "hi" }, headers: { "X-Hermes-Session-Key": "  agent:main:dm " } })
    expect(ok.status).toBe(202)
    expect(ok.headers.get("x-hermes-session-key")).toBe("agent:main:dm")
    const long = await c.request("POST", "/v1/runs", { body: { input: "hi" }, headers: { "X-Hermes-Session-Key": "k".repeat(257) } })
    expect(long.status).toBe(400)
    expect(await long.json()).toEqual({ error: { message: "Session key too long", type: "invalid_request_error" } })
    expect((await c.request("POST", "/v1/runs", { body: { input: "hi" }, headers: { "X-Hermes-Session-Key": "k".repeat(256) } })).status).toBe(202)
  })
})

describe("routing as aiohttp answers it", () => {
  it("404 text for unknown paths, 405 with Allow for a known path under another method, no security headers", async () => {
    const c = await open()
    const nf = await c.request("GET", "/v1/nope")
    expect(nf.status).toBe(404)
    expect(await nf.text()).toBe("404: Not Found")
    expect(nf.headers.get("content-type")).toBe("text/plain; charset=utf-8")
    expect(nf.headers.get("x-frame-options")).toBeNull()
    const na = await c.request("DELETE", "/v1/runs")
    expect(na.status).toBe(405)
    expect(na.headers.get("allow")).toBe("POST")
    expect(await na.text()).toBe("405: Method Not Allowed")
    expect((await c.request("GET", "/v1/runs/")).status).toBe(404)
  })

  it("a non-object JSON body crashes the runs handler into aiohttp's plain 500", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    for (const body of ["[1]", "\"x\"", "null", "3"]) {
      const r = await c.request("POST", "/v1/runs", { body })
      expect(r.status).toBe(500)
      expect(await r.text()).toBe("500 Internal Server Error\n\nServer got itself in trouble")
    }
    const bad = await c.request("POST", "/v1/runs", { body: "{\"input\": [\"a\"]}" })
    expect(bad.status).toBe(500)
  })

  it("/p/<profile>/ prefixes: ignored by 0.19.0, own profile only on 0.21.0", async () => {
    const old = await open({ hermesVersion: "0.19.0" })
    expect((await old.request("GET", "/p/anything/health")).status).toBe(200)
    const cur = await open({ hermesVersion: "0.21.0" })
    expect((await cur.request("GET", "/p/default/health")).status).toBe(200)
    const other = await cur.request("GET", "/p/other/health")
    expect(other.status).toBe(404)
    expect(await other.json()).toEqual({ error: "Unknown or unconfigured profile" })
  })
})

describe("CORS", () => {
  it("no Origin: no CORS headers; unknown origin: 403 empty; allowed: headers and preflight", async () => {
    const c = await open({ corsOrigins: "http://app.test" })
    const plain = await c.request("GET", "/health")
    expect(plain.headers.get("access-control-allow-origin")).toBeNull()
    const denied = await c.request("GET", "/health", { headers: { origin: "http://evil.test" } })
    expect(denied.status).toBe(403)
    expect(await denied.text()).toBe("")
    const allowed = await c.request("GET", "/health", { headers: { origin: "http://app.test" } })
    expect(allowed.headers.get("access-control-allow-origin")).toBe("http://app.test")
    expect(allowed.headers.get("vary")).toBe("Origin")
    const pre = await c.request("OPTIONS", "/v1/runs", { headers: { origin: "http://app.test" } })
    expect(pre.status).toBe(200)
    expect(pre.headers.get("access-control-max-age")).toBe("600")
    expect(pre.headers.get("access-control-allow-headers")).toBe("Authorization, Content-Type, Idempotency-Key")
    expect((await c.request("OPTIONS", "/v1/runs")).status).toBe(403)
  })

  it("the body limit's 413 and 400 carry an allowed origin's CORS headers (its middleware is inside the CORS one), not the security headers", async () => {
    const c = await open({ corsOrigins: "http://app.test" })
    const post = (contentLength: string, origin?: string) =>
      c.emu.fetch("http://emulator/v1/runs", {
        method: "POST",
        headers: { "content-length": contentLength, ...(origin !== undefined ? { origin } : {}) },
        body: "x"
      })
    for (const [length, status] of [["10000001", 413], ["12abc", 400]] as const) {
      const allowed = await post(length, "http://app.test")
      expect(allowed.status).toBe(status)
      expect(allowed.headers.get("access-control-allow-origin")).toBe("http://app.test")
      expect(allowed.headers.get("vary")).toBe("Origin")
      expect(allowed.headers.get("access-control-allow-methods")).toBe("GET, POST, DELETE, OPTIONS")
      expect(allowed.headers.get("x-frame-options")).toBeNull()
      const plain = await post(length)
      expect(plain.status).toBe(status)
      expect(plain.headers.get("access-control-allow-origin")).toBeNull()
      const refused = await post(length, "http://evil.test")
      expect(refused.status).toBe(403)
      expect(await refused.text()).toBe("")
    }
    const any = await open({ corsOrigins: "*" })
    const wildcard = await any.emu.fetch("http://emulator/v1/runs", { method: "POST", headers: { "content-length": "10000001", origin: "http://x.test" }, body: "x" })
    expect(wildcard.status).toBe(413)
    expect(wildcard.headers.get("access-control-allow-origin")).toBe("*")
    expect(wildcard.headers.get("vary")).toBeNull()
  })

  it("an Origin with surrounding whitespace is the origin itself in process too, as an HTTP parser trims it", async () => {
    const c = await open({ corsOrigins: "http://app.test" })
    const spaced = await c.emu.fetch("http://emulator/health", { headers: { origin: " http://app.test\t" } })
    expect(spaced.status).toBe(200)
    expect(spaced.headers.get("access-control-allow-origin")).toBe("http://app.test")
  })

  it("no configured origins refuses every browser origin", async () => {
    const c = await open()
    expect((await c.request("GET", "/health", { headers: { origin: "http://app.test" } })).status).toBe(403)
  })
})

describe("limits", () => {
  it("413 for a declared body over 10 MB, 400 for a bad Content-Length (no security headers)", async () => {
    const c = await open()
    const big = await c.emu.fetch("http://emulator/v1/runs", {
      method: "POST",
      headers: { authorization: `Bearer ${API_KEY}`, "content-length": "10000001" },
      body: "x"
    })
    expect(big.status).toBe(413)
    expect(await big.json()).toEqual({ error: { message: "Request body too large.", type: "invalid_request_error", param: null, code: "body_too_large" } })
    expect(big.headers.get("x-frame-options")).toBeNull()
  })

  it("429 with Retry-After when the concurrency cap is reached, counted across live runs", async () => {
    const c = await open({ maxConcurrentRuns: 2 })
    await c.script({ turns: [{ replies: [{ hold: "a" }] }, { replies: [{ hold: "b" }] }] })
    expect((await c.json("POST", "/v1/runs", { input: "1" })).status).toBe(202)
    expect((await c.json("POST", "/v1/runs", { input: "2" })).status).toBe(202)
    const r = await c.request("POST", "/v1/runs", { body: { input: "3" } })
    expect(r.status).toBe(429)
    expect(r.headers.get("retry-after")).toBe("1")
    expect(await r.json()).toEqual({ error: { message: "Too many concurrent runs (max 2)", type: "rate_limit_error", param: null, code: "rate_limit_exceeded" } })
    await c.release("a")
    await c.release("b")
  })

  it("503 with Retry-After while draining", async () => {
    const c = await open()
    await c.admin("/drain", { draining: true })
    const r = await c.request("POST", "/v1/runs", { body: { input: "x" } })
    expect(r.status).toBe(503)
    expect(r.headers.get("retry-after")).toBe("1")
    expect(await r.json()).toEqual({ error: { message: "Gateway is draining existing work; retry shortly.", type: "invalid_request_error", param: null, code: "gateway_draining" } })
    await c.admin("/drain", { draining: false })
    expect((await c.request("POST", "/v1/runs", { body: { input: "x" } })).status).toBe(202)
  })

  it("/health/detailed counts a held run in active_agents only once a drain refreshed the runtime status", async () => {
    const c = await open()
    await c.script({ turns: [{ replies: [{ hold: "h", text: "held" }] }] })
    const run = await c.json("POST", "/v1/runs", { input: "held" })
    await c.waitForStatus(String(run.body["run_id"]), ["running"])
    const activeAgents = async () => (await c.json("GET", "/health/detailed")).body["active_agents"]
    expect(await activeAgents()).toBe(0)
    await c.admin("/drain", { draining: true })
    expect(await activeAgents()).toBe(1)
    // leaving the drain writes the count of that moment, and it stays
    await c.admin("/drain", { draining: false })
    expect(await activeAgents()).toBe(1)
    await c.release("h")
  })
})
