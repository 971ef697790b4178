/**
 * The Layer start alone, as `suites` measures it (Emulator.layer built by a ManagedRuntime until
 * the Emulator service is ready), without the rest of that section: a quick check of the ≤ 5 ms
 * target after a change to how the layer assembles its services.
 *
 *   node --conditions=@hermetic/source --import tsx bench/layer-start.ts [--rounds N] [--emulator DIST_INDEX]
 *
 * `--emulator` loads another build (e.g. another worktree's packages/emulator/dist/index.js) to
 * compare a change with what it replaces under the same load.
 */
import { ManagedRuntime } from "effect"
import { pathToFileURL } from "node:url"
import { parseArgs } from "node:util"
import { spread } from "./stats.js"
import { builtEmulator } from "./suites.js"
import { SUITE_KEY as KEY } from "./suiteTest.js"

const { values } = parseArgs({ options: { rounds: { type: "string", default: "30" }, emulator: { type: "string" } } })
const rounds = Math.max(1, Number(values.rounds))
const { Emulator, layer } = values.emulator === undefined
  ? await builtEmulator()
  : ((await import(pathToFileURL(values.emulator).href)) as typeof import("@hermetic/emulator"))
const starts: Array<number> = []
// one start to load and compile the code, then the measured ones
for (let round = -1; round < rounds; round++) {
  const t0 = performance.now()
  const runtime = ManagedRuntime.make(layer({ apiKey: KEY, hermesVersion: "0.21.0" }))
  await runtime.runPromise(Emulator)
  if (round >= 0) starts.push(performance.now() - t0)
  await runtime.dispose()
}
const s = spread(starts)
console.log(`layer start over ${rounds} rounds: median ${s.median.toFixed(2)} ms (min ${s.min.toFixed(2)}, max ${s.max.toFixed(2)})`)
