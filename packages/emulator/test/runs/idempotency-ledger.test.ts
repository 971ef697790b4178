import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { runFingerprint } from "../../src/features/runs/RunLedger.js"
import { type Client, openClients, startClient } from "../support.js"
import { pyJsonLoads } from "../../src/python/index.js"

const open = openClients()

const post = (c: Client, body: unknown, key: string, headers: Record<string, string> = {}) =>
  c.request("POST", "/v1/runs", { body, headers: { "Idempotency-Key": key, ...headers } })

describe("0.21.0 Idempotency-Key ledger", () => {
  it("replays the same request with the current status and the replay header", async () => {
    const c = await open({ hermesVersion: "0.21.0" })
    await c.script({ turns: [{ replies: [{ hold: "h", text: "x" }] }] })
    const first = await post(c, { input: "hi" }, "k1")
    const a = (await first.json()) as Record<string, unknown>
    expect(a).toMatchObject({ status: "started", replayed: false })
    expect(first.headers.get("idempotency-replayed")).toBeNull()
    await c.waitForStatus(String(a["run_id"]), ["running"])
    const again = await post(c, { input: "hi" }, "  k1 ")
    expect(again.status).toBe(202)
    expect(again.headers.get("idempotency-replayed")).toBe("true")
    expect(await again.json()).toEqual({ run_id: a["run_id"], status: "running", replayed: true })
    await c.release("h")
    await c.waitForStatus(String(a["run_id"]), ["completed"])
    expect(await (await post(c, { input: "hi" }, "k1")).json()).toEqual({ run_id: a["run_id"], status: "completed", replayed: true })
  })

  it("answers 409 idempotency_key_conflict for another payload or another session key, keeping the original", async () => {
    const c = await open({ hermesVersion: "0.21.0" })
    const a = (await (await post(c, { input: "hi" }, "k")).json()) as Record<string, unknown>
    for (const [body, headers] of [
      [{ input: "other" }, {}],
      [{ input: "hi" }, { "X-Hermes-Session-Key": "memory" }]
    ] as const) {
      const r = await post(c, body, "k", headers)
      expect(r.status).toBe(409)
      expect(await r.json()).toEqual({
        error: { message: "Idempotency-Key was already used with a different request payload", type: "invalid_request_error", param: null, code: "idempotency_key_conflict" }
      })
    }
    expect(((await (await post(c, { input: "hi" }, "k")).json()) as Record<string, unknown>)["run_id"]).toBe(a["run_id"])
  })

  it("validates the key after the JSON and before the body, and an empty key disables the ledger", async () => {
    const c = await open({ hermesVersion: "0.21.0" })
    const bad = { error: { message: "Idempotency-Key must be 1-255 visible ASCII characters", type: "invalid_request_error", param: null, code: "invalid_idempotency_key" } }
    for (const key of ["a b", "x".repeat(256), "é"]) {
      const r = await c.request("POST", "/v1/runs", { body: {}, headers: { "Idempotency-Key": Buffer.from(key, "utf8").toString("latin1") } })
      expect(r.status, key).toBe(400)
      expect(await r.json()).toEqual(bad)
    }
    expect((await c.request("POST", "/v1/runs", { body: "{", headers: { "Idempotency-Key": "a b" } })).status).toBe(400)
    const ok = await post(c, { input: "hi" }, "x".repeat(255))
    expect(ok.status).toBe(202)
    const ids = new Set<unknown>()
    for (let i = 0; i < 2; i++) ids.add(((await (await post(c, { input: "hi" }, "   ")).json()) as Record<string, unknown>)["run_id"])
    expect(ids.size).toBe(2)
  })

  it("starts exactly one run for concurrent identical submissions", async () => {
    const c = await open({ hermesVersion: "0.21.0", maxConcurrentRuns: 0 })
    const results = await Promise.all(Array.from({ length: 24 }, () => post(c, { input: "hi" }, "same").then((r) => r.json() as Promise<Record<string, unknown>>)))
    expect(new Set(results.map((r) => r["run_id"])).size).toBe(1)
    expect(results.filter((r) => r["replayed"] === false)).toHaveLength(1)
  })

  it("after a restart an unfinished keyed run is interrupted, a keyless run is gone", async () => {
    const c = await open({ hermesVersion: "0.21.0" })
    await c.script({ turns: [{ replies: [{ hold: "h1" }] }, { replies: [{ hold: "h2" }] }] })
    const keyed = (await (await post(c, { input: "hi" }, "k")).json()) as Record<string, unknown>
    const keyless = (await c.json("POST", "/v1/runs", { input: "hi" })).body
    await c.waitForStatus(String(keyed["run_id"]), ["running"])
    await c.waitForStatus(String(keyless["run_id"]), ["running"])
    await c.admin("/restart")
    expect((await c.json("GET", `/v1/runs/${String(keyless["run_id"])}`)).status).toBe(404)
    const after = await c.json("GET", `/v1/runs/${String(keyed["run_id"])}`)
    expect(after.status).toBe(200)
    expect(after.body).toMatchObject({ status: "interrupted", error: "The gateway restarted before this run settled.", last_event: "run.interrupted" })
    // hydrated from sorted JSON; the interruption then adds its fields at the end, as dict.update does
    expect(Object.keys(after.body)).toEqual(["created_at", "model", "object", "run_id", "session_id", "status", "updated_at", "error", "last_event"])
    expect(await (await post(c, { input: "hi" }, "k")).json()).toEqual({ run_id: keyed["run_id"], status: "interrupted", replayed: true })
    expect((await c.json("POST", `/v1/runs/${String(keyed["run_id"])}/stop`)).body).toMatchObject({ status: "interrupted" })
  })

  it("keeps settled keyed runs pollable past the 1 h cache and prunes them 24 h after the last update", async () => {
    const c = await open({ hermesVersion: "0.21.0" })
    const a = (await (await post(c, { input: "hi" }, "k")).json()) as Record<string, unknown>
    const runId = String(a["run_id"])
    await c.waitForStatus(runId, ["completed"])
    await c.admin("/clock", { advance: 7200 })
    expect((await c.json("GET", `/v1/runs/${runId}`)).body).toMatchObject({ status: "completed" })
    await c.admin("/clock", { advance: 86_400 })
    // pruning is lazy: a keyed admission prunes, after which the same key starts a new run
    const b = (await (await post(c, { input: "hi" }, "k")).json()) as Record<string, unknown>
    expect(b["run_id"]).not.toBe(runId)
    expect(b["replayed"]).toBe(false)
  })

  it("never prunes an unsettled reservation", async () => {
    const c = await open({ hermesVersion: "0.21.0" })
    await c.script({ turns: [{ replies: [{ hold: "h" }] }] })
    const a = (await (await post(c, { input: "hi" }, "k")).json()) as Record<string, unknown>
    await c.waitForStatus(String(a["run_id"]), ["running"])
    await c.admin("/clock", { advance: 10 * 86_400 })
    expect(await (await post(c, { input: "hi" }, "k")).json()).toEqual({ run_id: a["run_id"], status: "running", replayed: true })
  })

  it("survives a real process restart on the same data dir", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hermetic-ledger-"))
    try {
      const c1 = await startClient({ hermesVersion: "0.21.0", dataDir: dir })
      await c1.script({ turns: [{ replies: [{ hold: "h" }] }] })
      const a = (await (await post(c1, { input: "hi" }, "k")).json()) as Record<string, unknown>
      await c1.waitForStatus(String(a["run_id"]), ["running"])
      await c1.emu.close()
      const c2 = await open({ hermesVersion: "0.21.0", dataDir: dir })
      expect((await c2.json("GET", `/v1/runs/${String(a["run_id"])}`)).body).toMatchObject({ status: "interrupted" })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("0.19.0 ignores the header: every request is a new run", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    const a = (await (await post(c, { input: "hi" }, "k")).json()) as Record<string, unknown>
    const b = (await (await post(c, { input: "hi" }, "k")).json()) as Record<string, unknown>
    expect(a["run_id"]).not.toBe(b["run_id"])
    expect(b).toEqual({ run_id: b["run_id"], status: "started" })
    expect((await c.request("POST", "/v1/runs", { body: { input: "x" }, headers: { "Idempotency-Key": "a b" } })).status).toBe(202)
  })
})

describe("run fingerprint = sha256(json.dumps(..., sort_keys=True, separators=(',', ':'), ensure_ascii=False))", () => {
  const bodies = [
    '{"input": 1}', '{"input": 1.0}', '{"input": 1e0}', '{"input": -0}', '{"input": -0.0}',
    '{"input": 9007199254740993}', '{"input": 9007199254740993.0}', '{"input": 1e-5}', '{"input": 1e16}',
    '{"input": 1e400}', '{"input": "\\u00e9\\n\\t\\b\\u0000"}', '{"b": 1, "a": [3, 2, {"z": null, "y": true}]}',
    '{"x": 1, "x": 2.0}', '{"\\ue000": 1, "\\ud800\\udc00": 2, "input": "hi"}', '{"__proto__": {"value": true}}',
    '{"input": "caf\\u00e9 \\ud83d\\ude00", "session_id": "s"}', '{"n": 123456789012345678901234567890}'
  ]
  const keys = ["", "memory"]
  const script = `
import json, hashlib, sys
for line in sys.stdin:
    raw, key = json.loads(line)
    body = json.loads(raw)
    canon = json.dumps({"body": body, "gateway_session_key": key}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    print(hashlib.sha256(canon.encode()).hexdigest())
`
  let python: Array<string> | undefined
  try {
    const input = bodies.flatMap((b) => keys.map((k) => JSON.stringify([b, k]))).join("\n") + "\n"
    python = execFileSync("python3", ["-c", script], { input, encoding: "utf8" }).trim().split("\n")
  } catch (e) {
    console.warn(`skipping python3 fingerprint vectors: ${(e as Error).message}`)
  }
  it.skipIf(python === undefined)("matches this machine's python3 for every vector", () => {
    let i = 0
    for (const raw of bodies) {
      const parsed = pyJsonLoads(raw)
      if (parsed._tag === "Left") throw new Error(`bad vector ${raw}`)
      for (const key of keys) {
        expect(runFingerprint(parsed.right, key === "" ? undefined : key), `${raw} / ${key}`).toBe(python?.[i++])
      }
    }
  })
})
