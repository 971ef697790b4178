/**
 * `oracle-runner`: node:util parseArgs per command; every command answers --help with exit 0
 * (and does nothing else: `down --help` must not stop anything), --version, usage errors exit 2.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { program } from "../src/cli/program.js"

const version = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version
const dir = mkdtempSync(join(tmpdir(), "oracle-runner-cli-"))
// a state file as 'up' leaves it, for a process that does not exist: 'down' would remove it
const stateFile = join(dir, "up.json")
const state = JSON.stringify({
  pid: 2147483646, processGroup: null, pin: "0.19.0", launcher: "process", baseUrl: "http://127.0.0.1:1",
  fakeModelUrl: "http://127.0.0.1:2", tempRoot: join(dir, "temp"), logFile: join(dir, "log"), startedAt: "2026-01-01T00:00:00.000Z"
})
const previousStateFile = process.env["HERMETIC_STATE_FILE"]
beforeAll(() => {
  writeFileSync(stateFile, state)
  process.env["HERMETIC_STATE_FILE"] = stateFile
})
afterAll(() => {
  if (previousStateFile === undefined) delete process.env["HERMETIC_STATE_FILE"]
  else process.env["HERMETIC_STATE_FILE"] = previousStateFile
  rmSync(dir, { recursive: true, force: true })
})

/** Runs the CLI program in process, capturing what it writes. */
const cli = async (...args: Array<string>) => {
  let stdout = ""
  let stderr = ""
  vi.spyOn(process.stdout, "write").mockImplementation((s) => ((stdout += String(s)), true))
  vi.spyOn(process.stderr, "write").mockImplementation((s) => ((stderr += String(s)), true))
  const code = await Effect.runPromise(program(args))
  vi.restoreAllMocks()
  return { code, stdout, stderr }
}
afterEach(() => vi.restoreAllMocks())

describe("oracle-runner CLI", () => {
  it("--version prints the package version", async () => {
    expect(await cli("--version")).toEqual({ code: 0, stdout: `oracle-runner ${version}\n`, stderr: "" })
  })

  it.each([["--help"], ["doctor", "--help"], ["up", "--help"], ["down", "--help"], ["probe", "--help"], ["up", "--pin", "0.19.0", "-h"]])(
    "%s %s answers with its usage, exit 0, touching nothing",
    async (...args) => {
      const r = await cli(...args)
      expect(r.code).toBe(0)
      expect(r.stdout).toMatch(/^(usage: oracle-runner|oracle-runner —)/)
      expect(r.stderr).toBe("")
      expect(readFileSync(stateFile, "utf8")).toBe(state)
    }
  )

  it.each([
    [[], "missing command"],
    [["bogus"], "unknown command bogus"],
    [["doctor", "--bogus"], "doctor: --bogus is not an option of doctor\ndoctor takes --help, --source, --fix"],
    [["down", "--bogus"], "down: --bogus is not an option of down"],
    [["up", "--launch", "process"], "--launch is not an option of up; did you mean --launcher?"],
    [["doctor", "--out", "x"], "doctor: --out is not an option of doctor"],
    [["down", "now"], "Unexpected argument 'now'"],
    [["up", "--launcher", "vm"], "--launcher is process or container, not vm"],
    [["up", "--ready-timeout", "soon"], "--ready-timeout wants a positive number of seconds"],
    [["up", "--faketime=yesterday"], "--faketime wants epoch seconds or an ISO date"],
    [["probe"], "probe needs --out FILE"]
  ])("usage error %j exits 2: %s", async (args, message) => {
    const r = await cli(...args)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(message)
    expect(readFileSync(stateFile, "utf8")).toBe(state)
  })
})
