/**
 * The replay loader reads recordings as untrusted input: every error names the file and never
 * quotes its content, symbolic links and FIFOs are refused (a FIFO used to hang the start), and a
 * miss that differs only in the operation says so.
 */
import { execFile, execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { makeReplayIndex } from "../../src/record/Replayer.js"
import { loadRecording, RecordingError } from "../../src/record/RecordingLoader.js"

const dirs: Array<string> = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

const SECRET = "root:x:0:0:root:/root:/bin/bash"

const exchange = (seq: number, operation: string | null) => ({
  seq,
  startedAtMs: 0,
  operation,
  request: { method: "GET", path: "/v1/models", query: "", headers: { authorization: "[REDACTED]" }, body: null },
  response: { status: 200, headers: [["Content-Type", "application/json"]], headersAtMs: 1, body: "{\"object\":\"list\",\"data\":[]}" }
})

/** A valid recording of one GET /v1/models; returns its directory. */
const recording = () => {
  const dir = mkdtempSync(join(tmpdir(), "hermetic-loader-"))
  dirs.push(dir)
  writeFileSync(join(dir, "recording.json"), JSON.stringify({ format: "hermetic-recording", version: 1, upstream: "http://127.0.0.1:8642", hermesVersion: "0.19.0", recordedAt: "2026-01-01T00:00:00Z" }))
  mkdirSync(join(dir, "exchanges"))
  writeFileSync(join(dir, "exchanges", "0001-GET-v1-models.json"), JSON.stringify(exchange(1, "models.list")))
  return dir
}

const loadError = (dir: string): string => {
  try {
    loadRecording(dir)
  } catch (e) {
    expect(e).toBeInstanceOf(RecordingError)
    return (e as RecordingError).message
  }
  throw new Error("the recording loaded")
}

describe("the replay loader", () => {
  it("loads a well-formed recording", () => {
    expect(loadRecording(recording()).exchanges.map((e) => e.operation)).toEqual(["models.list"])
  })

  it("refuses an exchange that is not JSON, naming the file and not quoting it", () => {
    const dir = recording()
    const file = join(dir, "exchanges", "0002-GET-v1-models.json")
    writeFileSync(file, SECRET)
    const message = loadError(dir)
    expect(message).toBe(`${file}: is not valid JSON, so not a recorded exchange`)
  })

  it("refuses a manifest that is not JSON, naming it", () => {
    const dir = recording()
    writeFileSync(join(dir, "recording.json"), `{"format": ${SECRET}`)
    expect(loadError(dir)).toBe(`${join(dir, "recording.json")}: is not valid JSON, so not a recording manifest`)
  })

  it("refuses an exchange that is a symbolic link to a file outside, without reading it", () => {
    const dir = recording()
    const outside = join(dir, "outside.txt")
    writeFileSync(outside, SECRET)
    const link = join(dir, "exchanges", "0002-GET-v1-models.json")
    symlinkSync(outside, link)
    const message = loadError(dir)
    expect(message).toBe(`${link}: is a symbolic link, not a regular file; a recording holds regular files only`)
    expect(message).not.toContain("root:x")
  })

  it("names the fields a decoded exchange gets wrong, never their values", () => {
    const dir = recording()
    const file = join(dir, "exchanges", "0002-GET-v1-models.json")
    const { response: _response, ...noResponse } = exchange(2, "models.list")
    writeFileSync(file, JSON.stringify({ ...noResponse, seq: SECRET }))
    const message = loadError(dir)
    expect(message).toBe(`${file}: is not a recorded exchange: seq has the wrong type or value; response is missing`)
  })

  it("refuses a FIFO in exchanges/ at once instead of waiting on it (the CLI exits 1 naming it)", async () => {
    const dir = recording()
    const fifo = join(dir, "exchanges", "0002-GET-v1-models.json")
    execFileSync("mkfifo", [fifo])
    // in a child process: the old loader blocked on the FIFO forever, which no in-process timeout can stop
    const result = await new Promise<{ code: number | null; stderr: string; killed: boolean }>((resolve) => {
      execFile(
        process.execPath,
        ["--import", "tsx", "packages/emulator/src/cli/main.ts", "replay", dir, "--port", "0"],
        { timeout: 60_000, env: { PATH: process.env["PATH"] ?? "" } },
        (err, _stdout, stderr) => resolve({ code: err === null ? 0 : typeof err.code === "number" ? err.code : null, stderr, killed: err?.killed === true })
      )
    })
    expect(result).toEqual({ code: 1, stderr: `hermes-emulator: ${fifo}: is a FIFO, not a regular file; a recording holds regular files only\n`, killed: false })
  }, 90_000)

  it("a miss that differs only by its operation says so, instead of an empty difference", () => {
    const dir = recording()
    // the same request, recorded under an operation this release's route table does not give it
    writeFileSync(join(dir, "exchanges", "0001-GET-v1-models.json"), JSON.stringify(exchange(1, "models.renamed")))
    const answer = makeReplayIndex(loadRecording(dir)).answer(exchange(1, null).request)
    expect(answer._tag).toBe("miss")
    const message = answer._tag === "miss" ? answer.miss.message : ""
    expect(message).toContain(
      "1 exchange(s) were recorded for GET /v1/models with this very request, but as operation models.renamed, and Hermes 0.19.0 names this request models.list: only the operation differs"
    )
    expect(message).not.toContain("differs at")
  })
})
