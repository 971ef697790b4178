// The harness of effect-retention.mjs (and bench/tools/stream-retention.mjs): each case,
// in a fresh node with --expose-gc, run to completion by Effect.runPromise 300 times, then in 20
// rounds of 4: old-space growth per run across two young-generation collections (the median).
// A case is `(big) => Effect`, `big` an 8 KB array the effect closes over.
import { execFileSync } from "node:child_process"
import v8 from "node:v8"
import { Effect } from "effect"

const old = () => { const s = v8.getHeapSpaceStatistics(); return s.find((x) => x.space_name === "old_space").space_used_size + s.find((x) => x.space_name === "large_object_space").space_used_size }
const settle = async () => { for (let k = 0; k < 5; k++) await new Promise(setImmediate); await new Promise((r) => setTimeout(r, 2)) }

/** Without a case name in argv: every case, each in its own node (the script at `scriptUrl`). With one: that case, measured here. */
export const runRetentionCases = async (cases, scriptUrl) => {
  const only = process.argv[2]
  if (only === undefined) {
    for (const name of Object.keys(cases)) process.stdout.write(execFileSync(process.execPath, ["--expose-gc", new URL(scriptUrl).pathname, name], { encoding: "utf8" }))
    return
  }
  const make = cases[only]
  const one = () => Effect.runPromise(make(new Array(1000).fill(1)))
  for (let i = 0; i < 300; i++) await one()
  gc(); await settle(); gc()
  const deltas = []
  for (let i = 0; i < 20; i++) {
    await settle(); gc({ type: "minor" }); gc({ type: "minor" })
    const o0 = old()
    for (let k = 0; k < 4; k++) await one()
    await settle(); gc({ type: "minor" }); gc({ type: "minor" })
    deltas.push((old() - o0) / 4)
  }
  deltas.sort((a, b) => a - b)
  console.log(`${String(deltas[10]).padStart(6)} B kept per run  ${only}`)
}
