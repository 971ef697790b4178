/**
 * Runs the pytest example (examples/pytest: a fixture that starts hermes-emulator, the official
 * openai SDK pointed at it) in a venv with openai and pytest. Skips, saying why, where pip cannot
 * install them.
 */
import { spawn } from "node:child_process"
import { describe, expect, it } from "vitest"
import { pythonClients } from "../../../../test/support/pythonClients.js"

const clients = await pythonClients()
if ("skip" in clients) console.log(`[skip] the pytest example: ${clients.skip}`)
const main = new URL("../../src/cli/main.ts", import.meta.url).pathname
const examples = new URL("../../examples/pytest/", import.meta.url).pathname

describe.skipIf("skip" in clients)("the pytest example", () => {
  it("passes: hermes-emulator started by the fixture, the openai SDK pointed at it", async () => {
    const python = "python" in clients ? clients.python : ""
    const run = await new Promise<{ status: number | null; out: string }>((resolve) => {
      const child = spawn(python, ["-m", "pytest", "-q", "-p", "no:cacheprovider", examples], {
        cwd: examples,
        env: { ...process.env, HERMES_EMULATOR: `${process.execPath} --conditions=@hermetic/source --import tsx ${main}` }
      })
      let out = ""
      child.stdout.on("data", (d: Buffer) => (out += d.toString()))
      child.stderr.on("data", (d: Buffer) => (out += d.toString()))
      child.on("close", (status) => resolve({ status, out }))
    })
    expect(run.out).toMatch(/2 passed/)
    expect(run.status, run.out).toBe(0)
  }, 120_000)
})
