/**
 * Bench child: the emulator on a loopback port, file-backed state, no concurrency cap, with one
 * settled run to poll. Prints `LISTENING <port> <controlPort> <runId>`.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startEmulator } from "../../packages/emulator/src/index.js"
import { startControl } from "./control.js"

const KEY = "bench-key-0123456789abcdef"
const emu = await startEmulator({
  apiKey: KEY,
  hermesVersion: "0.21.0",
  dataDir: mkdtempSync(join(tmpdir(), "hermetic-bench-")),
  maxConcurrentRuns: 0
})
const admitted = (await (
  await fetch(`${emu.url}/v1/runs`, { method: "POST", headers: { authorization: `Bearer ${KEY}` }, body: JSON.stringify({ input: "seed" }) })
).json()) as { run_id: string }
const control = await startControl()
process.once("SIGINT", () => process.exit(0))
process.stdout.write(`LISTENING ${emu.port} ${control} ${admitted.run_id}\n`)
