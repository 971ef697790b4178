// child: the emulator on a port, plus a side port: /mark does two minor GCs and returns old-space size
import * as http from "node:http"
import v8 from "node:v8"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startEmulator } from "@hermetic/emulator"
const KEY = "bench-key-0123456789abcdef"
const emu = await startEmulator({ apiKey: KEY, hermesVersion: "0.21.0", dataDir: mkdtempSync(join(tmpdir(), "hermetic-one-")), maxConcurrentRuns: 0 })
const old = () => { const s = v8.getHeapSpaceStatistics(); return s.find((x) => x.space_name === "old_space")!.space_used_size + s.find((x) => x.space_name === "large_object_space")!.space_used_size }
const gc = (globalThis as any).gc
const side = http.createServer((req, res) => {
  setTimeout(() => {
    gc({ type: "minor" }); gc({ type: "minor" })
    res.end(String(old()))
  }, 5)
})
side.listen(0, "127.0.0.1", () => process.stdout.write(`LISTENING ${emu.port} ${(side.address() as any).port} x\n`))
