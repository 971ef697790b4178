// Instructions per POST /v1/runs in process (no socket), for cachegrind: run it twice with
// different counts and divide the difference (icount.sh does). PKG picks the package to load, so
// two builds can be compared (a copy of an older dist/ under another package name).
//   node --import tsx bench/tools/icount.ts COUNT [keyed]
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ManagedRuntime } from "effect"

type EmulatorPackage = typeof import("@hermetic/emulator")
type EmuRequest = Parameters<import("@hermetic/emulator").EmulatorShape["respond"]>[0]
// another build of the same package: the same exports by construction
const pkg: EmulatorPackage = await import(process.env["PKG"] ?? "@hermetic/emulator")
const count = Number(process.argv[2])
if (!Number.isInteger(count) || count <= 0) throw new Error("usage: icount.ts COUNT [keyed]")
const keyed = process.argv[3] === "keyed"
const KEY = "bench-key-0123456789abcdef"
const dataDir = mkdtempSync(join(tmpdir(), "hermetic-icount-"))
const rt = ManagedRuntime.make(pkg.layer({ apiKey: KEY, hermesVersion: "0.21.0", maxConcurrentRuns: 0, dataDir }))
const emu = await rt.runPromise(pkg.Emulator)
const body = new TextEncoder().encode('{"input":"hi"}')
const req = (i: number): EmuRequest => ({
  method: "POST",
  path: "/v1/runs",
  query: new URLSearchParams(),
  headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json", "content-length": String(body.length), ...(keyed ? { "idempotency-key": `k${i}` } : {}) },
  body,
  aborted: new Promise(() => {})
})
const CONNECTIONS = 4
const round = async (n: number, base: number) => {
  await Promise.all(Array.from({ length: CONNECTIONS }, async (_, k) => {
    for (let i = k; i < n; i += CONNECTIONS) await emu.respond(req(base + i))
  }))
  await new Promise((r) => setTimeout(r, 30))
}
await round(3000, 0) // warm-up: V8 has compiled the hot code before the counted requests
await round(count, 100000)
rmSync(dataDir, { recursive: true, force: true })
process.exit(0)
