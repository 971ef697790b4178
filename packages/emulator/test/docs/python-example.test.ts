/**
 * Runs the guide's Python example (docs/examples/test_app.py) with pytest against a fresh emulator.
 * Skips, saying why, where python3, pytest or requests are missing.
 */
import { spawn, spawnSync } from "node:child_process"
import { describe, expect, it } from "vitest"
import { startEmulator } from "../../src/index.js"

const ROOT = new URL("../../../../", import.meta.url).pathname
const probe = spawnSync("python3", ["-c", "import pytest, requests"], { encoding: "utf8" })
const missing = probe.error !== undefined ? `python3 not found (${probe.error.message})` : probe.status !== 0 ? `python deps missing: ${probe.stderr.trim().split("\n").pop()}` : undefined
if (missing !== undefined) console.log(`[skip] the guide's Python example: ${missing} (pip install pytest requests)`)

describe.skipIf(missing !== undefined)("the guide's Python example", () => {
  it("passes under pytest against the emulator", async () => {
    const key = "test-key-0123456789"
    const emu = await startEmulator({ apiKey: key })
    try {
      // an async child: the emulator answers in this process while pytest runs
      const run = await new Promise<{ status: number | null; out: string }>((resolve) => {
        const child = spawn("python3", ["-m", "pytest", "-q", "-p", "no:cacheprovider", "docs/examples/test_app.py"], {
          cwd: ROOT,
          env: { ...process.env, HERMES_BASE_URL: emu.url, API_SERVER_KEY: key }
        })
        let out = ""
        child.stdout.on("data", (d: Buffer) => (out += d.toString()))
        child.stderr.on("data", (d: Buffer) => (out += d.toString()))
        child.on("close", (status) => resolve({ status, out }))
      })
      expect(run.out).toMatch(/2 passed/)
      expect(run.status, run.out).toBe(0)
    } finally {
      await emu.close()
    }
  }, 60_000)
})
