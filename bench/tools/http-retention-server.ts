// child of http-retention.ts: the emulator on a port, plus a side port whose every request does two
// minor GCs and answers the old-space size. Prints `LISTENING <port> <sidePort> x` (bench/child.ts).
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startEmulator } from "@hermetic/emulator"
import { exposedGc, oldSpaceBytes, twoScavenges } from "./heap.js"

const KEY = "bench-key-0123456789abcdef"
const gc = exposedGc()
const dataDir = mkdtempSync(join(tmpdir(), "hermetic-one-"))
const emu = await startEmulator({ apiKey: KEY, hermesVersion: "0.21.0", dataDir, maxConcurrentRuns: 0 })
const side = http.createServer((_req, res) => {
  setTimeout(() => {
    twoScavenges(gc)
    res.end(String(oldSpaceBytes()))
  }, 5)
})
side.listen(0, "127.0.0.1", () => process.stdout.write(`LISTENING ${emu.port} ${(side.address() as AddressInfo).port} x\n`))
// the parent stops this child with SIGTERM: close the emulator and remove its data dir
process.once("SIGTERM", () => {
  side.close()
  void emu.close().finally(() => {
    rmSync(dataDir, { recursive: true, force: true })
    process.exit(0)
  })
})
