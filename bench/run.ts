/**
 * `npm run bench`: every benchmark of the project, measured side by side in one run, printed as
 * tables of ratios and written to evidence/bench.json. Load stays on loopback, bounded in time.
 * Options: --rounds N (default 3), --seconds S per measurement (default 5), --only NAME.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { cpus, totalmem, type as osType, release } from "node:os"
import { parseArgs } from "node:util"
import { emulatorVsBare, renderEmulatorVsBare } from "./emulator-vs-bare.js"

const { values } = parseArgs({
  options: { rounds: { type: "string" }, seconds: { type: "string" }, help: { type: "boolean", short: "h" } }
})
if (values.help === true) {
  process.stdout.write("npm run bench -- [--rounds N] [--seconds S]\n  emulator vs bare node:http + better-sqlite3 (GET /v1/runs/{id}, POST /v1/runs)\n")
  process.exit(0)
}
const rounds = Number(values.rounds ?? 3)
const seconds = Number(values.seconds ?? 5)
const log = (s: string) => process.stderr.write(`${s}\n`)

const machine = {
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? "unknown",
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  os: `${osType()} ${release()}`,
  node: process.version
}
log(`bench on ${machine.cpus}× ${machine.cpuModel}, ${machine.memoryGiB} GiB, ${machine.node}; ${rounds} rounds × ${seconds} s`)
log("emulator vs bare node:http + better-sqlite3 …")
const vsBare = await emulatorVsBare({ rounds, seconds, log })
const table = renderEmulatorVsBare(vsBare)
process.stdout.write(`\n## Emulator vs bare node:http + better-sqlite3 (target: within 2×)\n\n${table}\n`)
mkdirSync("evidence", { recursive: true })
writeFileSync(
  "evidence/bench.json",
  JSON.stringify({ schemaVersion: 1, measuredAt: new Date().toISOString(), machine, rounds, seconds, emulatorVsBare: vsBare }, null, 2) + "\n"
)
log("wrote evidence/bench.json")
