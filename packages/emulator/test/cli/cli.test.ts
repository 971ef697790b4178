/**
 * `hermes-emulator`: --version, --help, usage errors exit 2 (the program, in process), and the real
 * entry on the Node runtime: a SIGTERM ends `serve` cleanly with exit 0.
 */
import { spawn } from "node:child_process"
import { once } from "node:events"
import { readFileSync } from "node:fs"
import { Effect } from "effect"
import { afterEach, describe, expect, it, vi } from "vitest"
import { cliEntry } from "../../../../test/support/cliEntry.js"
import { program } from "../../src/cli/program.js"

const version = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version

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

describe("hermes-emulator CLI", () => {
  it("--version prints the package version", async () => {
    expect(await cli("--version")).toEqual({ code: 0, stdout: `hermes-emulator ${version}\n`, stderr: "" })
  })

  it.each([["--help"], ["serve", "--help"], ["-h"]])("%s %s answers with the usage, exit 0", async (...args) => {
    const r = await cli(...args)
    expect(r.code).toBe(0)
    expect(r.stdout).toContain("hermes-emulator serve [options]")
  })

  it.each([[[]], [["bogus"]], [["serve", "--bogus"]], [["serve", "--port", "x"]], [["serve", "--hermes-version", "9"]], [["serve", "extra"]]])(
    "usage error %j exits 2 with a hint on stderr",
    async (args) => {
      const r = await cli(...args)
      expect(r.code).toBe(2)
      expect(r.stderr).toContain("Run 'hermes-emulator --help' for usage.")
    }
  )

  it("serve on the Node runtime answers /health, then SIGTERM closes it and the process exits 0", async () => {
    const child = spawn(process.execPath, [...cliEntry("hermes-emulator"), "serve", "--port", "0", "--api-key", "cli-test-key-0123456789"], { stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    child.stdout.on("data", (d: Buffer) => (out += d.toString()))
    const deadline = Date.now() + 50_000
    while (!/listening on (http:\/\/\S+)/.test(out) && Date.now() < deadline) await new Promise((f) => setTimeout(f, 50))
    const url = /listening on (http:\/\/\S+) /.exec(out)?.[1]
    expect(url).toBeDefined()
    expect((await fetch(`${url}/health`)).status).toBe(200)
    child.kill("SIGTERM")
    const [code] = (await once(child, "exit")) as [number | null]
    expect(code).toBe(0)
  }, 60_000)
})
