/**
 * The recorded cassettes of a pin (fixtures/<pin>/, the real gateway's answers) replayed against
 * the bundled CLI as users run it: its own process (dist/hermes-emulator-launcher.cjs, the minified
 * one-file bundle), over HTTP. The oracle's own cassette comparison plays the emulator in process,
 * from the library; this proves the bundle (tree-shaken, minified, better-sqlite3 bundled) answers
 * the same. Exit code 0 only with no divergent scenario and no error.
 *
 *   node packages/emulator/scripts/bundle.mjs
 *   node --conditions=@hermetic/source --import tsx bench/bundled-cli-cassettes.ts [--pin 0.19.0]
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { once } from "node:events"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { loadCassettes } from "../packages/diff/src/cli/loadInputs.js"
import { provenanceFor } from "../packages/diff/src/cli/provenanceFor.js"
import { summaryTable } from "../packages/diff/src/cli/summaryTable.js"
import { compareAll } from "../packages/diff/src/compare/compareAll.js"
import { loadRegister } from "../packages/diff/src/diff/DivergenceRegister.js"
import { LearnedNoise } from "../packages/diff/src/noise/LearnedNoise.js"
import { EMULATOR_API_KEY } from "../packages/diff/src/target/EmulatorTargets.js"
import { emulatorDriver } from "../packages/diff/src/target/emulatorDriver.js"
import { liveTarget } from "../packages/diff/src/target/liveTarget.js"
import { repoRoot } from "./child.js"

const { values } = parseArgs({ options: { pin: { type: "string", default: "0.19.0" } } })
const pin = values.pin ?? "0.19.0"

/** The bundled CLI on a free port; resolves once it printed where it listens. */
const startBundledCli = async () => {
  const child = spawn(
    process.execPath,
    [join(repoRoot, "packages/emulator/dist/hermes-emulator-launcher.cjs"), "serve", "--hermes-version", pin, "--api-key", EMULATOR_API_KEY, "--port", "0"],
    { stdio: ["ignore", "pipe", "inherit"] }
  )
  let out = ""
  for await (const chunk of child.stdout) {
    out += String(chunk)
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
    if (url !== undefined) return { child, url }
  }
  throw new Error(`the bundled CLI exited before listening: ${out}`)
}

const { child, url } = await startBundledCli()
const program = Effect.gen(function*() {
  const inputs = yield* loadCassettes(pin, [], "strict")
  const reference = inputs[0]?.reference
  if (reference === undefined) return yield* Effect.dieMessage(`no cassettes under fixtures/${pin}/`)
  const candidate = liveTarget(
    { kind: "emulator-http", pin, real: false, clock: "running", description: `the bundled CLI (dist/hermes-emulator-launcher.cjs) at ${url}` },
    emulatorDriver({ fetch: (u, init) => fetch(u, init), baseUrl: url, apiKey: EMULATOR_API_KEY, pollIntervalMs: 10, sseDeadlineMs: 5_000 })
  )
  const { evidence } = yield* compareAll({
    reference,
    candidate,
    scenarios: inputs,
    register: yield* loadRegister(),
    noise: new LearnedNoise(),
    noiseMethod: "from the two runs recorded in each cassette (where a cassette has two)",
    provenance: yield* provenanceFor(pin, "cassette", false, 0, undefined)
  })
  process.stdout.write(summaryTable(evidence))
  const bad = evidence.scenarios.filter((s) => s.verdict === "divergent" || s.verdict === "error")
  return bad.length === 0 ? 0 : 1
})
const code = await Effect.runPromise(Effect.scoped(program).pipe(Effect.provide(NodeContext.layer)))
child.kill("SIGTERM")
await once(child, "exit")
process.exit(code)
