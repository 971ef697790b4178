// One request at a time through the built emulator in process (Emulator.respond): old-space growth
// per request across two young-generation collections. The built package (npm run build).
//   node --expose-gc --import tsx bench/tools/emulator-retention.ts POST /v1/runs '{"input":"hi"}'
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ManagedRuntime } from "effect"
import { Emulator, type EmulatorShape, layer } from "@hermetic/emulator"
import { spread } from "../stats.js"
import { exposedGc, oldSpaceBytes, settle, twoScavenges } from "./heap.js"

const [method, path, body = ""] = process.argv.slice(2)
if (method === undefined || path === undefined) throw new Error("usage: emulator-retention.ts METHOD PATH [BODY]")
const gc = exposedGc()
const KEY = "bench-key-0123456789abcdef"
const dataDir = mkdtempSync(join(tmpdir(), "hermetic-retention-"))
const rt = ManagedRuntime.make(layer({ apiKey: KEY, hermesVersion: "0.21.0", maxConcurrentRuns: 0, dataDir }))
const emu = await rt.runPromise(Emulator)
const bytes = new TextEncoder().encode(body)
const req = (): Parameters<EmulatorShape["respond"]>[0] => ({
  method,
  path,
  query: new URLSearchParams(),
  headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json", "content-length": String(bytes.length) },
  body: bytes,
  aborted: new Promise(() => {})
})
for (let i = 0; i < 300; i++) { await emu.respond(req()); await new Promise(setImmediate) }
gc(); await settle(); gc()
const deltas: Array<number> = []
for (let i = 0; i < 40; i++) {
  await settle(); twoScavenges(gc)
  const o0 = oldSpaceBytes()
  await emu.respond(req())
  await settle(); twoScavenges(gc)
  deltas.push(oldSpaceBytes() - o0)
}
const s = spread(deltas)
console.log(`${method} ${path}: old-space growth per request after 2 scavenges: median ${s.median} B, min ${s.min}, max ${s.max}`)
await rt.dispose()
rmSync(dataDir, { recursive: true, force: true })
