/** The `oracle` CLI's exit codes: 2 whenever the oracle could not run, 0 for a cassette replayed equal. */
import { execFile } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { cliEntry } from "../../../test/support/cliEntry.js"
import { fixturesDir } from "../src/cassette/cassetteFiles.js"

const run = promisify(execFile)
const entry = cliEntry("oracle")

const oracle = async (...args: Array<string>): Promise<{ code: number; stdout: string; stderr: string }> => {
  try {
    const { stdout, stderr } = await run(process.execPath, [...entry, ...args], { timeout: 110_000 })
    return { code: 0, stdout, stderr }
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string }
    return { code: err.code ?? -1, stdout: err.stdout ?? "", stderr: err.stderr ?? "" }
  }
}

// each case starts a node process: a second or more of CPU, much more wall on a loaded machine
describe.concurrent("oracle CLI", { timeout: 120_000 }, () => {
  it("exits 2 and says why when the pin's cassettes do not exist", async () => {
    const r = await oracle("compare", "--pin", "0.21.0", "--target", "cassette")
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("no cassettes for pin 0.21.0 under fixtures/0.21.0/")
  })

  it("replays a committed cassette against the emulator and exits 0 with a summary", async () => {
    const cassette = readdirSync(join(fixturesDir(), "0.19.0")).find((f) => f.startsWith("health"))
    expect(cassette).toBeDefined()
    const r = await oracle("replay", join(fixturesDir(), "0.19.0", cassette ?? ""), "--target", "cassette")
    expect(r.stderr).toBe("")
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/1 scenarios: 1 equal/)
  })

  it("compares the committed cassettes with the emulator over HTTP (--candidate http), and refuses an unknown candidate", async () => {
    const out = mkdtempSync(join(tmpdir(), "oracle-candidate-"))
    try {
      const r = await oracle("compare", "--target", "cassette", "--candidate", "http", "--out", out)
      expect(r.stderr).toContain("vs emulator over HTTP")
      expect(r.code).toBe(0)
      expect(readdirSync(out)).toContain("0.19.0-cassette-vs-emulator-http.json")
    } finally {
      rmSync(out, { recursive: true, force: true })
    }
    const bad = await oracle("compare", "--target", "cassette", "--candidate", "socket")
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("--candidate is inprocess or http, not socket")
  })
})
