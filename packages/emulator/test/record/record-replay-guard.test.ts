/**
 * `record` and `replay` listen under `serve`'s start-up guard: a non-loopback host without a key is
 * refused with serve's message and exit code, and with a key every request must carry it.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { program } from "../../src/cli/program.js"
import { StartupRefused } from "../../src/config/StartupGuard.js"
import { startRecorder } from "../../src/record/Recorder.js"
import { startReplayer } from "../../src/record/Replayer.js"
import { API_KEY, openClients } from "../support.js"

const open = openClients()
const dirs: Array<string> = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "hermetic-guard-"))
  dirs.push(d)
  return d
}

/** Runs the CLI program in process, capturing its exit code and stderr. */
const cli = async (...args: Array<string>) => {
  let stderr = ""
  vi.spyOn(process.stdout, "write").mockImplementation(() => true)
  vi.spyOn(process.stderr, "write").mockImplementation((s) => ((stderr += String(s)), true))
  const code = await Effect.runPromise(program(args))
  vi.restoreAllMocks()
  return { code, stderr }
}

/** One recorded GET /v1/models with credentials. */
const recording = () => {
  const dir = tempDir()
  writeFileSync(join(dir, "recording.json"), JSON.stringify({ format: "hermetic-recording", version: 1, upstream: "http://127.0.0.1:8642", hermesVersion: "0.19.0", recordedAt: "2026-01-01T00:00:00Z" }))
  mkdirSync(join(dir, "exchanges"))
  const request = { method: "GET", path: "/v1/models", query: "", headers: { authorization: "[REDACTED]" }, body: null }
  const response = { status: 200, headers: [["Content-Type", "application/json"]], headersAtMs: 0, body: "{\"object\":\"list\",\"data\":[]}" }
  writeFileSync(join(dir, "exchanges", "0001-GET-v1-models.json"), JSON.stringify({ seq: 1, startedAtMs: 0, operation: "models.list", request, response }))
  return dir
}

beforeEach(() => {
  vi.stubEnv("API_SERVER_KEY", undefined)
  vi.stubEnv("HERMETIC_ALLOW_NO_KEY", undefined)
})
afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

describe("record and replay under serve's start-up guard", () => {
  it("a non-loopback host without a key is refused with serve's message and exit code 1", async () => {
    const serve = await cli("serve", "--host", "0.0.0.0", "--port", "0")
    expect(serve.code).toBe(1)
    expect(serve.stderr).toContain("refusing to start: host 0.0.0.0 is reachable from other machines and no API key is set")
    const record = await cli("record", "--upstream", "http://127.0.0.1:9", "--out", join(tempDir(), "rec"), "--host", "0.0.0.0", "--port", "0")
    const replay = await cli("replay", recording(), "--host", "0.0.0.0", "--port", "0")
    expect(record).toEqual(serve)
    expect(replay).toEqual(serve)
  })

  it("a weak key is refused as serve refuses it", async () => {
    const serve = await cli("serve", "--api-key", "short", "--port", "0")
    expect(serve.code).toBe(1)
    expect(await cli("replay", recording(), "--api-key", "short", "--port", "0")).toEqual(serve)
  })

  it("the refusal comes before anything is written or listened on", async () => {
    const out = join(tempDir(), "rec")
    await expect(startRecorder({ upstream: "http://127.0.0.1:9", out, host: "::" })).rejects.toBeInstanceOf(StartupRefused)
    expect(() => readdirSync(out)).toThrow(/ENOENT/)
  })

  it("with a key, a non-loopback replay starts and answers only requests that carry it", async () => {
    const replay = await startReplayer({ dir: recording(), host: "0.0.0.0", apiKey: API_KEY, speed: 0 })
    try {
      const url = `http://127.0.0.1:${replay.port}/v1/models`
      const without = await fetch(url)
      expect(without.status).toBe(401)
      expect(await without.json()).toEqual({ error: { message: "Invalid API key", type: "invalid_request_error", code: "invalid_api_key" } })
      expect((await fetch(url, { headers: { authorization: "Bearer wrong-key-0123456789" } })).status).toBe(401)
      const withKey = await fetch(url, { headers: { authorization: `Bearer ${API_KEY}` } })
      expect([withKey.status, await withKey.text()]).toEqual([200, "{\"object\":\"list\",\"data\":[]}"])
      expect(replay.misses()).toEqual([])
    } finally {
      await replay.close()
    }
  })

  it("with a key, the recorder forwards and records only requests that carry it", async () => {
    const upstream = await open()
    const out = tempDir()
    const recorder = await startRecorder({ upstream: upstream.emu.url, out, host: "0.0.0.0", apiKey: API_KEY })
    try {
      const url = `http://127.0.0.1:${recorder.port}/v1/models`
      expect((await fetch(url)).status).toBe(401)
      expect((await fetch(url, { headers: { authorization: `Bearer ${API_KEY}` } })).status).toBe(200)
      await recorder.settled()
    } finally {
      await recorder.close()
    }
    expect(readdirSync(join(out, "exchanges"))).toEqual(["0001-GET-v1-models.json"])
  })
})
