import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { type Client, openClients, startClient } from "../support.js"

const open = openClients()

const T0 = 1796044995.71222
const frozen = async (c: Client, at = T0) => {
  await c.admin("/clock", { freeze: true })
  await c.admin("/clock", { set: at })
}
const session = (r: { body: Record<string, unknown> }) => r.body["session"] as Record<string, unknown>
const error = (r: { body: Record<string, unknown> }) => r.body["error"] as Record<string, unknown>

describe("sessions CRUD on 0.19.0 (observed live: evidence/cassette-sources/live/sessions-jobs-0.19.0.md)", () => {
  it("creates an empty session with upstream's exact bytes and a generated api_<time>_<8hex> id", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    await frozen(c)
    const res = await c.request("POST", "/api/sessions", { body: {} })
    expect(res.status).toBe(201)
    const text = await res.text()
    const id = /"id": "(api_1796044995_[0-9a-f]{8})"/.exec(text)?.[1]
    expect(id).toBeDefined()
    expect(text).toBe(
      `{"object": "hermes.session", "session": {"id": "${id}", "source": "api_server", "user_id": null, "model": "hermes-agent", "title": null, "started_at": 1796044995.71222, "ended_at": null, "end_reason": null, "message_count": 0, "tool_call_count": 0, "input_tokens": 0, "output_tokens": 0, "cache_read_tokens": 0, "cache_write_tokens": 0, "reasoning_tokens": 0, "estimated_cost_usd": null, "actual_cost_usd": null, "api_call_count": 0, "parent_session_id": null, "has_system_prompt": false, "has_model_config": false}}`
    )
  })

  it("sanitizes titles, stringifies non-string ids/models/titles, and refuses what upstream refuses", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    const one = await c.json("POST", "/api/sessions", { id: "s-one", title: "  My   first\tsession ", system_prompt: "be brief", model: "m-x" })
    expect(one.status).toBe(201)
    expect(session(one)).toMatchObject({ id: "s-one", title: "My first session", model: "m-x", has_system_prompt: true })
    const dup = await c.json("POST", "/api/sessions", { id: "s-one" })
    expect(dup).toMatchObject({ status: 409, body: { error: { message: "Session already exists: s-one", code: "session_exists" } } })
    const taken = await c.json("POST", "/api/sessions", { id: "s-two", title: "My first session" })
    expect(taken).toMatchObject({ status: 400, body: { error: { message: "Title already in use by session s-one", code: "invalid_title" } } })
    expect((await c.json("GET", "/api/sessions/s-two")).status).toBe(404)
    for (const id of ["../x", "C:x", "   ", "a\nb"]) {
      const bad = await c.json("POST", "/api/sessions", { session_id: id })
      expect(bad).toMatchObject({ status: 400, body: { error: { message: "Invalid session ID", code: "invalid_session_id" } } })
    }
    const long = await c.json("POST", "/api/sessions", { id: "x".repeat(257) })
    expect(error(long)["message"]).toBe("Session ID too long")
    const numeric = await c.json("POST", "/api/sessions", { id: 5, title: 5, model: 7 })
    expect(session(numeric)).toMatchObject({ id: "5", title: "5", model: "7" })
    expect(session(await c.json("POST", "/api/sessions", { id: 0 }))["id"]).toMatch(/^api_\d+_[0-9a-f]{8}$/)
    const prompt = await c.json("POST", "/api/sessions", { id: "s-three", system_prompt: 5 })
    expect(prompt).toMatchObject({ status: 400, body: { error: { message: "system_prompt must be a string", code: "invalid_system_prompt" } } })
    expect(await c.json("POST", "/api/sessions", [1])).toMatchObject({ status: 400, body: { error: { message: "Request body must be a JSON object", code: null } } })
    const notJson = await c.request("POST", "/api/sessions", { body: "nope" })
    expect(await notJson.json()).toEqual({ error: { message: "Invalid JSON in request body", type: "invalid_request_error", param: null, code: null } })
  })

  it("a title too long on create is an escaping exception: plain 500 and no row", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    const res = await c.request("POST", "/api/sessions", { body: { id: "s-long", title: "x".repeat(101) } })
    expect(res.status).toBe(500)
    expect(await res.text()).toBe("500 Internal Server Error\n\nServer got itself in trouble")
    expect((await c.json("GET", "/api/sessions/s-long")).status).toBe(404)
  })

  it("a lone surrogate in a created or forked id is sqlite3's UnicodeEncodeError: plain 500, nothing stored (evidence/hardening/)", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    const raw = (method: string, path: string, body: string) => c.request(method, path, { body })
    for (let i = 0; i < 2; i++) {
      const r = await raw("POST", "/api/sessions", '{"id": "\\ud800x"}')
      expect(r.status).toBe(500)
      expect(await r.text()).toBe("500 Internal Server Error\n\nServer got itself in trouble")
    }
    expect((await c.json("POST", "/api/sessions", { id: "base" })).status).toBe(201)
    expect((await raw("POST", "/api/sessions/base/fork", '{"id": "\\udc00f"}')).status).toBe(500)
    // a proper pair is fine, and titles are sanitized instead
    expect((await raw("POST", "/api/sessions", '{"id": "\\ud83d\\ude00p", "title": "\\ud800t"}')).status).toBe(201)
    const list = (await c.json("GET", "/api/sessions")).body["data"] as Array<Record<string, unknown>>
    expect(list.map((s) => [s["id"], s["title"]])).toEqual([["\u{1F600}p", "\ufffdt"], ["base", null]])
  })

  it("PATCH: 404 before the body, unknown fields refused first, first end_reason wins, title rules", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    await c.json("POST", "/api/sessions", { id: "a" })
    await c.json("POST", "/api/sessions", { id: "b", title: "5" })
    expect((await c.request("PATCH", "/api/sessions/nope", { body: "xx" })).status).toBe(404)
    const unknown = await c.json("PATCH", "/api/sessions/a", { foo: 1, bar: 2, title: "z" })
    expect(unknown).toMatchObject({ status: 400, body: { error: { message: "Unsupported session fields: bar, foo", code: "unsupported_session_field" } } })
    expect(session(await c.json("GET", "/api/sessions/a"))["title"]).toBeNull()
    const tooLong = await c.json("PATCH", "/api/sessions/a", { title: "x".repeat(101) })
    expect(tooLong).toMatchObject({ status: 400, body: { error: { message: "Title too long (101 chars, max 100)", code: "invalid_title" } } })
    const inUse = await c.json("PATCH", "/api/sessions/a", { title: 5 })
    expect(error(inUse)["message"]).toBe("Title '5' is already in use by session b")
    const ended = await c.json("PATCH", "/api/sessions/a", { end_reason: "user_closed", title: "T1" })
    expect(session(ended)).toMatchObject({ title: "T1", end_reason: "user_closed" })
    const endedAt = session(ended)["ended_at"]
    expect(typeof endedAt).toBe("number")
    const again = await c.json("PATCH", "/api/sessions/a", { end_reason: "second" })
    expect(session(again)).toMatchObject({ end_reason: "user_closed", ended_at: endedAt })
    expect(session(await c.json("PATCH", "/api/sessions/a", { title: null }))["title"]).toBeNull()
    expect(session(await c.json("PATCH", "/api/sessions/a", {}))["id"]).toBe("a")
  })

  it("DELETE answers hermes.session.deleted once, then 404; children are orphaned", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    await c.json("POST", "/api/sessions", { id: "p" })
    await c.json("POST", "/api/sessions/p/fork", { id: "child" })
    const del = await c.json("DELETE", "/api/sessions/p")
    expect(del).toMatchObject({ status: 200, body: { object: "hermes.session.deleted", id: "p", deleted: true } })
    expect((await c.json("DELETE", "/api/sessions/p")).status).toBe(404)
    expect(session(await c.json("GET", "/api/sessions/child"))["parent_session_id"]).toBeNull()
  })

  it("fork titles number on Python's \\d+ read by int(): any Unicode decimal digits, exactly past 2^53 (recorded: sessions-fork-ids-and-lineage-numbers)", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    const forkTitle = async (source: string, id: string) => session(await c.json("POST", `/api/sessions/${source}/fork`, { id }))["title"]
    await c.json("POST", "/api/sessions", { id: "arabic", title: "Report #\u0663" })
    expect(await forkTitle("arabic", "arabic-1")).toBe("Report #4")
    expect(await forkTitle("arabic", "arabic-2")).toBe("Report #5")
    await c.json("POST", "/api/sessions", { id: "wide", title: "Wide #\uff17" })
    expect(await forkTitle("wide", "wide-1")).toBe("Wide #8")
    await c.json("POST", "/api/sessions", { id: "math", title: "Math #\u{1d7d7}" })
    expect(await forkTitle("math", "math-1")).toBe("Math #10")
    await c.json("POST", "/api/sessions", { id: "big", title: "Big #12345678901234567891" })
    expect(await forkTitle("big", "big-1")).toBe("Big #12345678901234567892")
  })

  it("fork: ends the source as branched, numbers titles, and forks of an already-ended session are hidden from the list", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    await c.json("POST", "/api/sessions", { id: "src" })
    const f1 = await c.json("POST", "/api/sessions/src/fork", {})
    expect(f1.status).toBe(201)
    expect(session(f1)).toMatchObject({ title: "fork", parent_session_id: "src", source: "api_server" })
    expect(session(f1)["id"]).toMatch(/^api_\d+_[0-9a-f]{8}$/)
    expect(session(await c.json("POST", "/api/sessions/src/fork", {}))["title"]).toBe("fork #2")
    expect(session(await c.json("GET", "/api/sessions/src"))["end_reason"]).toBe("branched")
    expect((await c.json("POST", "/api/sessions/src/fork", { id: String(session(f1)["id"]) })).status).toBe(409)
    // an id with a slash is accepted by fork (only CR/LF/NUL are checked)
    expect((await c.json("POST", "/api/sessions/src/fork", { id: "a/b", title: "slash" })).status).toBe(201)
    await c.json("POST", "/api/sessions", { id: "closed" })
    await c.json("PATCH", "/api/sessions/closed", { end_reason: "user_closed", title: "7" })
    expect(session(await c.json("POST", "/api/sessions/closed/fork", { id: "f-2" }))["title"]).toBe("7 #2")
    // a refused fork title answers 400 after the fork exists
    const refused = await c.json("POST", "/api/sessions/closed/fork", { id: "f-4", title: "7" })
    expect(refused).toMatchObject({ status: 400, body: { error: { message: "Title '7' is already in use by session closed" } } })
    expect((await c.json("GET", "/api/sessions/f-4")).status).toBe(200)
    const listed = await c.json<{ data: Array<Record<string, unknown>> }>("GET", "/api/sessions")
    const ids = listed.body.data.map((s) => s["id"])
    expect(ids).toContain(session(f1)["id"])
    expect(ids).not.toContain("f-2")
    expect(ids).not.toContain("f-4")
    const all = await c.json<{ data: Array<Record<string, unknown>> }>("GET", "/api/sessions?include_children=yes")
    expect(all.body.data.map((s) => s["id"])).toEqual(expect.arrayContaining(["f-2", "f-4"]))
  })

  it("list: python int() parsing of limit/offset, caps, has_more, source filter, last_active and preview keys", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    for (const id of ["s1", "s2", "s3"]) {
      await c.json("POST", "/api/sessions", { id })
      await c.admin("/clock", { advance: 1 })
    }
    const page = await c.json<{ data: Array<Record<string, unknown>>; limit: number; offset: number; has_more: boolean }>(
      "GET",
      "/api/sessions?limit=%201%20&offset=1"
    )
    expect(page.body.data.map((s) => s["id"])).toEqual(["s2"])
    expect(page.body).toMatchObject({ limit: 1, offset: 1, has_more: true })
    expect(Object.keys(page.body.data[0] ?? {})).toEqual([
      "id", "source", "user_id", "model", "title", "started_at", "ended_at", "end_reason", "message_count", "tool_call_count",
      "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "reasoning_tokens", "estimated_cost_usd",
      "actual_cost_usd", "api_call_count", "parent_session_id", "last_active", "preview", "has_system_prompt", "has_model_config"
    ])
    expect((await c.json("GET", "/api/sessions?limit=0")).body).toMatchObject({ data: [], limit: 0, has_more: true })
    expect((await c.json("GET", "/api/sessions?limit=999&source=cli")).body).toMatchObject({ data: [], limit: 200, has_more: false })
    expect((await c.json("GET", "/api/sessions?limit=1.5&offset=abc")).body).toMatchObject({ limit: 50, offset: 0 })
    expect((await c.json("GET", "/api/sessions?limit=1_0")).body).toMatchObject({ limit: 10 })
  })

  it("messages of an empty session and 404s", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    await c.json("POST", "/api/sessions", { id: "m" })
    expect((await c.json("GET", "/api/sessions/m/messages?limit=1")).body).toEqual({ object: "list", session_id: "m", data: [] })
    const missing = await c.json("GET", "/api/sessions/nope/messages")
    expect(missing).toMatchObject({ status: 404, body: { error: { message: "Session not found: nope", code: "session_not_found" } } })
  })

  it("every sessions route wants the key", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    for (const [method, path] of [["GET", "/api/sessions"], ["POST", "/api/sessions"], ["GET", "/api/sessions/x"], ["PATCH", "/api/sessions/x"], ["DELETE", "/api/sessions/x"], ["GET", "/api/sessions/x/messages"], ["POST", "/api/sessions/x/fork"]] as const) {
      const res = await c.request(method, path, method === "GET" ? { auth: "wrong" } : { auth: "wrong", body: {} })
      expect(res.status).toBe(401)
    }
  })
})

describe("sessions on 0.21.0 (reference notes; inferred details marked in Pins.ts)", () => {
  it("flags in the session shape, PATCH-able, archived sessions leave the list; source allow-list; paged messages", async () => {
    const c = await open({ hermesVersion: "0.21.0" })
    const created = await c.json("POST", "/api/sessions", { id: "b1", source: "browser" })
    expect(session(created)).toMatchObject({ source: "hermes_browser", pinned: false, archived: false, hidden: false })
    expect(session(await c.json("POST", "/api/sessions", { id: "b2", source: "mars" }))["source"]).toBe("api_server")
    expect(session(await c.json("PATCH", "/api/sessions/b1", { archived: true, pinned: true }))).toMatchObject({ archived: true, pinned: true })
    const bad = await c.json("PATCH", "/api/sessions/b1", { hidden: "yes" })
    expect(bad).toMatchObject({ status: 400, body: { error: { code: "invalid_session_field" } } })
    const listed = await c.json<{ data: Array<Record<string, unknown>> }>("GET", "/api/sessions")
    expect(listed.body.data.map((s) => s["id"])).toEqual(["b2"])
    const page = await c.json("GET", "/api/sessions/b2/messages")
    expect(page.body).toEqual({ object: "list", session_id: "b2", data: [], pagination: { limit: 500, offset: 0, order: "latest", returned: 0 } })
    expect((await c.json("GET", "/api/sessions/b2/messages?limit=501")).body).toMatchObject({ error: { code: "invalid_pagination" } })
  })
})

describe("sessions are durable", () => {
  it("survive an admin restart and a process restart on the same data dir, per namespace", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hermetic-sessions-"))
    try {
      // closed by the test itself (a process stop), so not opened through `open`
      const first = await startClient({ hermesVersion: "0.19.0", dataDir: dir })
      await first.json("POST", "/api/sessions", { id: "keep", title: "Kept" })
      await first.admin("/restart")
      expect(session(await first.json("GET", "/api/sessions/keep"))["title"]).toBe("Kept")
      await first.emu.close()
      const second = await open({ hermesVersion: "0.19.0", dataDir: dir })
      expect(session(await second.json("GET", "/api/sessions/keep"))["title"]).toBe("Kept")
      const other = await open({ hermesVersion: "0.19.0", dataDir: dir }, "other-ns")
      expect((await other.json("GET", "/api/sessions/keep")).status).toBe(404)
      await second.admin("/reset")
      expect((await second.json("GET", "/api/sessions/keep")).status).toBe(404)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
