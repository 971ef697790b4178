import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { layer, startEmulator } from "../../src/index.js"
import { SNAPSHOT_TABLES } from "../../src/snapshot/NamespaceSnapshot.js"
import { SESSION_DERIVED_TABLE_NAMES } from "../../src/features/sessions/SessionTables.js"
import { ADMIN_HEADERS, API_KEY, type Client, openClients } from "../support.js"

const open = openClients()
const dir = mkdtempSync(join(tmpdir(), "hermetic-snapshot-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const snapshotOf = async (c: Client, namespace = "default") => {
  const r = await fetch(`${c.emu.url}/__admin/snapshot`, { method: "POST", headers: { "x-hermetic-namespace": namespace, ...ADMIN_HEADERS }, body: JSON.stringify({ action: "save" }) })
  expect(r.status).toBe(200)
  return ((await r.json()) as { snapshot: Record<string, unknown> }).snapshot
}

/** Everything the durable state answers through the API, for one client. */
const answers = async (c: Client, responseId: string, ledger = true) => {
  const get = async (path: string) => {
    const r = await c.request("GET", path)
    return { status: r.status, body: await r.text() }
  }
  return {
    sessions: await get("/api/sessions"),
    chatMessages: await get("/api/sessions/snap-chat/messages"),
    chatSession: await get("/api/sessions/snap-chat"),
    response: await get(`/v1/responses/${responseId}`),
    jobs: await get("/api/jobs"),
    // the 0.21.0 ledger answers a repeated Idempotency-Key with the original run
    ledger: !ledger ? null : await (async () => {
      const r = await c.request("POST", "/v1/runs", { body: { input: "ledgered" }, headers: { "Idempotency-Key": "k-snap" } })
      return { status: r.status, body: await r.json() }
    })()
  }
}

/** Sessions, messages, a stored response in a named conversation, a ledgered run and a job. */
const populate = async (c: Client) => {
  await c.script({ turns: [{ replies: [{ text: "chat answer" }] }, { replies: [{ text: "response answer" }] }, { replies: [{ text: "run answer" }] }] })
  const chat = await c.request("POST", "/v1/chat/completions", {
    body: { model: "hermes-agent", messages: [{ role: "user", content: "hello snapshot" }] },
    headers: { "x-hermes-session-id": "snap-chat" }
  })
  expect(chat.status).toBe(200)
  const response = await c.json("POST", "/v1/responses", { input: "remember me", conversation: "conv-1" })
  expect(response.status).toBe(200)
  const run = await c.request("POST", "/v1/runs", { body: { input: "ledgered" }, headers: { "Idempotency-Key": "k-snap" } })
  const runId = String(((await run.json()) as Record<string, unknown>)["run_id"])
  await c.waitForStatus(runId, ["completed"])
  expect((await c.json("POST", "/api/jobs", { name: "daily", schedule: "0 9 * * *", prompt: "say hi" })).status).toBe(200)
  return { responseId: String(response.body["id"]), runId }
}

describe("snapshots: save a namespace, start from it", () => {
  it("round-trips: save → file → a fresh emulator started with the snapshot answers the same", async () => {
    const a = await open({ hermesVersion: "0.21.0" })
    const { responseId, runId } = await populate(a)
    const snapshot = await snapshotOf(a)
    expect(snapshot).toMatchObject({ format: "hermetic-snapshot", version: 1, hermesVersion: "0.21.0", namespace: "default" })
    const tables = snapshot["tables"] as Record<string, Array<Record<string, unknown>>>
    expect(tables["hermes_sessions"]?.map((s) => s["id"])).toContain("snap-chat")
    expect(tables["run_ledger"]?.map((r) => r["run_id"])).toEqual([runId])
    expect(tables["stored_responses"]?.map((r) => r["response_id"])).toContain(responseId)
    const file = join(dir, "state.json")
    writeFileSync(file, JSON.stringify(snapshot))

    // what a restart of A answers (memory gone, storage kept) is what a fresh start from the file must answer
    await a.admin("/restart")
    const expected = await answers(a, responseId)
    expect(expected.ledger).toEqual({ status: 202, body: { run_id: runId, status: "completed", replayed: true } })
    expect(JSON.parse(expected.chatMessages.body)).toMatchObject({ data: expect.arrayContaining([expect.objectContaining({ content: "hello snapshot" })]) })

    const b = await open({ hermesVersion: "0.21.0", snapshot: file })
    // saving B gives back the same rows (before reading: a GET of a stored response touches its LRU stamp)
    expect((await snapshotOf(b))["tables"]).toEqual(snapshot["tables"])
    expect(await answers(b, responseId)).toEqual(expected)
  })

  it("has one shape: the save call's answer, saved as it is, starts an emulator and loads over the control plane", async () => {
    const a = await open({ hermesVersion: "0.21.0" })
    await populate(a)
    await a.admin("/restart")
    const saved = await fetch(`${a.emu.url}/__admin/snapshot`, { method: "POST", headers: ADMIN_HEADERS, body: JSON.stringify({ action: "save" }) })
    const answer = await saved.text()
    const file = join(dir, "answer.json")
    writeFileSync(file, answer)
    const expected = (await a.request("GET", "/api/sessions")).status === 200 ? await (await a.request("GET", "/api/sessions")).text() : ""
    const fromFile = await open({ hermesVersion: "0.21.0", snapshot: file })
    expect(await (await fromFile.request("GET", "/api/sessions")).text()).toBe(expected)
    const loadedInto = await open({ hermesVersion: "0.21.0" }, "copy2")
    const load = await fetch(`${loadedInto.emu.url}/__admin/snapshot`, {
      method: "POST",
      headers: { "x-hermetic-namespace": "copy2", ...ADMIN_HEADERS },
      body: JSON.stringify({ action: "load", snapshot: JSON.parse(answer) })
    })
    expect(load.status).toBe(200)
    expect(await (await loadedInto.request("GET", "/api/sessions")).text()).toBe(expected)
  })

  it("round-trips a 0.19.0 namespace too (no runs ledger on that pin)", async () => {
    const a = await open({ hermesVersion: "0.19.0" })
    const { responseId } = await populate(a)
    const snapshot = await snapshotOf(a)
    expect((snapshot["tables"] as Record<string, Array<unknown>>)["run_ledger"]).toEqual([])
    await a.admin("/restart")
    const expected = await answers(a, responseId, false)
    const file = join(dir, "state-0.19.0.json")
    writeFileSync(file, JSON.stringify(snapshot))
    const b = await open({ hermesVersion: "0.19.0", snapshot: file })
    expect(await answers(b, responseId, false)).toEqual(expected)
    expect(expected.chatMessages.status).toBe(200)
  })

  it("loads over the control plane into another namespace, replacing what was there", async () => {
    const a = await open({ hermesVersion: "0.21.0" })
    const { responseId } = await populate(a)
    await a.admin("/restart")
    const expected = await answers(a, responseId)
    const snapshot = await snapshotOf(a)

    const b = await open({ hermesVersion: "0.21.0" }, "copy")
    await b.script({ turns: [{ replies: [{ text: "to be replaced" }] }] })
    await b.request("POST", "/v1/chat/completions", { body: { model: "m", messages: [{ role: "user", content: "old" }] }, headers: { "x-hermes-session-id": "old-session" } })
    const load = await fetch(`${b.emu.url}/__admin/snapshot`, {
      method: "POST",
      headers: { "x-hermetic-namespace": "copy", ...ADMIN_HEADERS },
      body: JSON.stringify({ action: "load", snapshot })
    })
    expect(load.status).toBe(200)
    expect(((await load.json()) as { loaded: Record<string, number> }).loaded).toMatchObject({ hermes_sessions: 3, run_ledger: 1 })
    expect(await answers(b, responseId)).toEqual(expected)
    expect((await b.request("GET", "/api/sessions/old-session")).status).toBe(404)
  })

  it("refuses a snapshot of another pin, an unknown table or column, and a body that is no snapshot", async () => {
    const a = await open({ hermesVersion: "0.21.0" })
    const snapshot = await snapshotOf(a)
    const load = async (body: unknown) => {
      const r = await fetch(`${a.emu.url}/__admin/snapshot`, { method: "POST", headers: ADMIN_HEADERS, body: JSON.stringify(body) })
      return { status: r.status, text: await r.text() }
    }
    expect(await load({ action: "load", snapshot: { ...snapshot, hermesVersion: "0.19.0" } })).toMatchObject({
      status: 400,
      text: expect.stringContaining("saved under Hermes 0.19.0, this emulator emulates 0.21.0")
    })
    expect((await load({ action: "load", snapshot: { ...snapshot, tables: { evil: [] } } })).text).toContain("unknown tables: evil")
    expect((await load({ action: "load", snapshot: { ...snapshot, tables: { hermes_sessions: [{ "id) VALUES (1); --": 1 }] } } })).text).toContain("unknown columns")
    expect((await load({ action: "load", snapshot: { format: "x" } })).text).toContain("not a hermetic snapshot")
    expect((await load({ action: "frobnicate" })).status).toBe(400)
  })

  it("a bad --snapshot file stops the start with its reason", async () => {
    const file = join(dir, "broken.json")
    writeFileSync(file, "{ not json")
    await expect(startEmulator({ apiKey: API_KEY, snapshot: file })).rejects.toThrow(/snapshot is not JSON/)
    await expect(startEmulator({ apiKey: API_KEY, snapshot: join(dir, "missing.json") })).rejects.toThrow(/cannot read snapshot/)
  })

  it("covers every durable table the storage creates (settled_runs is process memory upstream; derived tables are rebuilt by triggers)", async () => {
    const tables = await Effect.runPromise(
      Effect.scoped(
        Effect.provide(
          Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`),
          layer({})
        )
      )
    )
    const derived = new Set<string>(["settled_runs", ...SESSION_DERIVED_TABLE_NAMES])
    expect(tables.map((t) => t.name).filter((n) => !derived.has(n)).sort()).toEqual([...SNAPSHOT_TABLES].sort())
  })
})

