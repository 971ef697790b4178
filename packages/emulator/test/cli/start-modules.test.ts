/**
 * What a start of the bundled CLI loads of Node itself, counted rather than timed: each of these
 * modules cost every start milliseconds it does not need (docs/performance.md, "Cold start").
 * node:crypto (17 modules) comes with the first request that needs it; the global Response is
 * undici, which brings tls, http2, zlib and worker_threads (~12 ms) as it is first touched; the
 * ESM loader came with node:module. A preload records `process.moduleLoadList` when the server
 * starts listening. What node itself loads before any script (Node 24 sets up the ESM loader for
 * every start, even of an empty CommonJS file) is measured the same way and is not the CLI's cost.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const BIN = new URL("../../bin/hermes-emulator.cjs", import.meta.url).pathname
const dir = mkdtempSync(join(tmpdir(), "hermetic-start-modules-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const PRELOAD = `
const http = require("node:http")
const emit = http.Server.prototype.emit
http.Server.prototype.emit = function (event, ...args) {
  if (event === "listening") require("node:fs").writeFileSync(process.env.MODULES_OUT, process.moduleLoadList.join("\\n"))
  return emit.call(this, event, ...args)
}
`

const NOT_AT_START = ["NativeModule crypto", "NativeModule internal/deps/undici/undici", "NativeModule tls", "NativeModule http2", "NativeModule zlib", "NativeModule worker_threads", "NativeModule internal/modules/esm/loader"]

/** The modules node has loaded when an empty CommonJS script runs: its own start, not ours. */
const nodeOwnStart = async (): Promise<ReadonlyArray<string>> => {
  const script = join(dir, "empty.cjs")
  const out = join(dir, "node-own.txt")
  writeFileSync(script, `require("node:fs").writeFileSync(process.env.MODULES_OUT, process.moduleLoadList.join("\\n"))`)
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [script], { env: { ...process.env, MODULES_OUT: out }, stdio: "ignore" })
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`node exited ${code}`))))
  })
  return readFileSync(out, "utf8").split("\n")
}

describe("a start of the bundled CLI", () => {
  it("loads none of Node's modules it only needs later (crypto, undici and what it brings, the ESM loader)", async () => {
    const preload = join(dir, "preload.cjs")
    const out = join(dir, "modules.txt")
    writeFileSync(preload, PRELOAD)
    const child = spawn(process.execPath, ["-r", preload, BIN, "serve", "--port", "0", "--api-key", "start-modules-key-0123456789"], {
      env: { ...process.env, MODULES_OUT: out },
      stdio: ["ignore", "pipe", "pipe"]
    })
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (d: Buffer) => d.toString().includes("listening on") && resolve())
        child.on("exit", (code) => reject(new Error(`hermes-emulator exited ${code}`)))
      })
    } finally {
      child.kill("SIGTERM")
    }
    const loaded = readFileSync(out, "utf8").split("\n")
    const own = await nodeOwnStart()
    expect(loaded).toContain("NativeModule http")
    // node's own start never brings crypto or undici: the check keeps its teeth on every Node
    expect(own.filter((m) => NOT_AT_START.slice(0, 2).includes(m))).toEqual([])
    expect(NOT_AT_START.filter((m) => loaded.includes(m) && !own.includes(m))).toEqual([])
  })
})
