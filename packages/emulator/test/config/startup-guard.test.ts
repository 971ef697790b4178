import { execFile, spawn } from "node:child_process"
import { describe, expect, it } from "vitest"
import { cliEntry } from "../../../../test/support/cliEntry.js"
import { startupRefusal, isLoopbackHost } from "../../src/config/StartupGuard.js"
import { startEmulator, StartupRefused } from "../../src/index.js"

const GOOD = "k".repeat(16)

describe("start-up guard (Hermes 0.19.0's rules)", () => {
  it("refuses short and placeholder keys, and a non-loopback host without a key", () => {
    expect(startupRefusal({ host: "127.0.0.1", apiKey: "abc", adminKey: undefined })).toContain("shorter than 16")
    expect(startupRefusal({ host: "127.0.0.1", apiKey: `  ${"k".repeat(15)}  `, adminKey: undefined })).toContain("shorter than 16")
    expect(startupRefusal({ host: "127.0.0.1", apiKey: GOOD, adminKey: "adm" })).toContain("admin key")
    for (const host of ["0.0.0.0", "::", "192.168.1.2", "example.com", "[::]"]) {
      expect([host, startupRefusal({ host, apiKey: "", adminKey: undefined })?.includes("no API key")]).toEqual([host, true])
      expect([host, startupRefusal({ host, apiKey: GOOD, adminKey: undefined })]).toEqual([host, undefined])
    }
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"]) {
      expect([host, isLoopbackHost(host), startupRefusal({ host, apiKey: "", adminKey: undefined })]).toEqual([host, true, undefined])
    }
  })

  it("a keyless non-loopback start needs HERMETIC_ALLOW_NO_KEY=local-test, that exact value", async () => {
    expect(startupRefusal({ host: "0.0.0.0", apiKey: "", adminKey: undefined, allowNoKey: true })).toBeUndefined()
    expect(startupRefusal({ host: "0.0.0.0", apiKey: "", adminKey: undefined })).toContain("HERMETIC_ALLOW_NO_KEY=local-test")
    // a weak key stays refused whatever the variable says
    expect(startupRefusal({ host: "0.0.0.0", apiKey: "abc", adminKey: undefined, allowNoKey: true })).toContain("shorter than 16")
    for (const value of ["1", "true", "yes", "LOCAL-TEST"]) {
      await expect(startEmulator({ host: "0.0.0.0" }, { env: { HERMETIC_ALLOW_NO_KEY: value } })).rejects.toBeInstanceOf(StartupRefused)
    }
    const emu = await startEmulator({ host: "0.0.0.0" }, { env: { HERMETIC_ALLOW_NO_KEY: "local-test" } })
    try {
      expect((await fetch(`http://127.0.0.1:${emu.port}/health`)).status).toBe(200)
    } finally {
      await emu.close()
    }
  })

  it("startEmulator throws StartupRefused instead of listening", async () => {
    await expect(startEmulator({ host: "0.0.0.0" })).rejects.toBeInstanceOf(StartupRefused)
    await expect(startEmulator({ apiKey: "abc" })).rejects.toThrow(/shorter than 16/)
  })

  it("the CLI exits 1 (the server could not start) with the reason", async () => {
    const run = (args: ReadonlyArray<string>) =>
      new Promise<{ code: number; stderr: string }>((resolve) => {
        execFile(process.execPath, [...cliEntry("hermes-emulator"), "serve", "--port", "0", ...args], { env: { PATH: process.env["PATH"] ?? "" } }, (err, _out, stderr) =>
          resolve({ code: err === null ? 0 : Number(err.code), stderr })
        )
      })
    const open = await run(["--host", "0.0.0.0"])
    expect(open.code).toBe(1)
    expect(open.stderr).toContain("no API key is set")
    const short = await run(["--api-key", "abc"])
    expect(short.code).toBe(1)
    expect(short.stderr).toContain("shorter than 16")
  }, 120_000)

  it("no key on loopback starts (a deliberate difference from Hermes), and the start-up message says so plainly", async () => {
    const proc = spawn(process.execPath, [...cliEntry("hermes-emulator"), "serve", "--port", "0", "--host", "127.0.0.1"], { env: { PATH: process.env["PATH"] ?? "" } })
    let stderr = ""
    proc.stderr.on("data", (d: Buffer) => (stderr += d.toString()))
    try {
      await new Promise<void>((resolve, reject) => {
        proc.stdout.on("data", (d: Buffer) => d.toString().includes("listening on") && resolve())
        proc.on("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)))
      })
      expect(stderr).toContain("no API key set, every request is accepted without auth")
      expect(stderr).toContain("Hermes refuses to start without a key; the emulator allows it on a loopback host only")
    } finally {
      proc.kill()
    }
  }, 120_000)
})
