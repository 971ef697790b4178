/**
 * Bench child: the emulator on a loopback port, file-backed state, with one settled run to poll.
 * Args: [--pin 0.19.0|0.21.0] (default 0.21.0) [--max-concurrent-runs N] (default 0: no cap).
 * Prints `LISTENING <port> <controlPort> <runId>`.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { startEmulator } from "@hermetic/emulator"
import { startControl } from "./control.js"

const { values } = parseArgs({ options: { pin: { type: "string" }, "max-concurrent-runs": { type: "string" } } })
const KEY = "bench-key-0123456789abcdef"
const pin = values.pin === "0.19.0" ? "0.19.0" : "0.21.0"
const emu = await startEmulator({
  apiKey: KEY,
  hermesVersion: pin,
  dataDir: mkdtempSync(join(tmpdir(), "hermetic-bench-")),
  maxConcurrentRuns: Number(values["max-concurrent-runs"] ?? 0)
})
const headers = { authorization: `Bearer ${KEY}` }
const admitted = (await (await fetch(`${emu.url}/v1/runs`, { method: "POST", headers, body: JSON.stringify({ input: "seed" }) })).json()) as {
  run_id: string
}
// poll until the seeded run settled, so GET measures what a client polling a finished run sees
for (let i = 0; i < 1000; i++) {
  const r = (await (await fetch(`${emu.url}/v1/runs/${admitted.run_id}`, { headers })).json()) as { status?: string }
  if (r.status === "completed") break
  await new Promise((resolve) => setTimeout(resolve, 2))
}
const control = await startControl()
const stop = () => void emu.close().finally(() => process.exit(0))
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
process.stdout.write(`LISTENING ${emu.port} ${control} ${admitted.run_id}\n`)
