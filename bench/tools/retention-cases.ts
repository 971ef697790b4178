// The harness of effect-retention.ts and stream-retention.ts: each case, in a fresh plain node with
// --expose-gc, run to completion by Effect.runPromise 300 times, then in 20 rounds of 4: old-space
// growth per run across two young-generation collections (the median). A case is `(big) => Effect`,
// `big` an 8 KB array the effect closes over. The cases run compiled to plain JavaScript
// (bench/child.ts): a loader's name-keeping wrappers would change what the closures keep.
import { execFileSync } from "node:child_process"
import { relative } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { compile, repoRoot } from "../child.js"
import { spread } from "../stats.js"
import { exposedGc, oldSpaceBytes, settle, twoScavenges } from "./heap.js"

export type RetentionCase = (big: ReadonlyArray<number>) => Effect.Effect<unknown, unknown>

/** Without a case name in argv: every case, each in its own node (the script at `scriptUrl`, compiled). With one: that case, measured here. */
export const runRetentionCases = async (cases: Readonly<Record<string, RetentionCase>>, scriptUrl: string): Promise<void> => {
  const only = process.argv[2]
  if (only === undefined) {
    const plain = await compile(relative(repoRoot, fileURLToPath(scriptUrl)))
    for (const name of Object.keys(cases)) process.stdout.write(execFileSync(process.execPath, ["--expose-gc", plain, name], { encoding: "utf8" }))
    return
  }
  const make = cases[only]
  if (make === undefined) throw new Error(`no case '${only}'; the cases: ${Object.keys(cases).join(", ")}`)
  const gc = exposedGc()
  const one = () => Effect.runPromise(make(new Array<number>(1000).fill(1)))
  for (let i = 0; i < 300; i++) await one()
  gc(); await settle(); gc()
  const deltas: Array<number> = []
  for (let i = 0; i < 20; i++) {
    await settle(); twoScavenges(gc)
    const o0 = oldSpaceBytes()
    for (let k = 0; k < 4; k++) await one()
    await settle(); twoScavenges(gc)
    deltas.push((oldSpaceBytes() - o0) / 4)
  }
  console.log(`${String(spread(deltas).median).padStart(6)} B kept per run  ${only}`)
}
