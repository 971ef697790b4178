// The emulator's summary of every command tools/differential/shell_summary_pairs.py wrote, against 0.19.0's: prints the first
// differences and the count (npx tsx tools/differential/shellSummaryCheck.ts PAIRS.json, from the repository root).
import { readFileSync } from "node:fs"
import { summarizeShellCommand } from "../../packages/emulator/src/agent/tools/ShellCommandSummary.js"

const pairs: Array<[string, string]> = JSON.parse(readFileSync(process.argv[2] as string, "utf8"))
let differing = 0
for (const [command, upstream] of pairs) {
  const emulator = summarizeShellCommand(command)
  if (emulator !== upstream && differing++ < 15) console.log(JSON.stringify({ command, upstream, emulator }))
}
console.log(`commands ${pairs.length}, differing ${differing}`)
