import { Effect } from "effect"
import { compareAll } from "./src/compare/compareAll.js"
import { loadRegister } from "./src/diff/DivergenceRegister.js"
import { builtinScenarioDir, readScenarioFile, scenarioFilesIn } from "./src/scenario/ScenarioFile.js"
import { emulatorInProcessTarget } from "./src/target/EmulatorTargets.js"
import { gatewayTarget } from "./src/target/GatewayTarget.js"
import { renderReport } from "./src/evidence/renderReport.js"
import { LearnedNoise } from "./src/noise/LearnedNoise.js"
import { writeFileSync } from "node:fs"

const program = Effect.gen(function*() {
  const files = yield* Effect.promise(() => scenarioFilesIn(builtinScenarioDir()))
  const scenarios = yield* Effect.forEach(files, (f) => Effect.map(readScenarioFile(f), (scenario) => ({ scenario, file: f })))
  const { target: reference } = yield* gatewayTarget({ pin: "0.19.0", launcher: "process", progress: (l) => console.error(l) })
  const candidate = yield* emulatorInProcessTarget({ pin: "0.19.0" })
  const register = yield* Effect.promise(() => loadRegister())
  const { evidence } = yield* compareAll({ reference, candidate, scenarios, register, noise: new LearnedNoise(), noiseMethod: "two runs", provenance: { emulatorCommit: "x", emulatorDirty: false, node: process.version, runs: 1, command: "try" },
    progress: (d, t, c) => console.error(`${d}/${t} ${c.evidence.name} ${c.evidence.verdict} ${c.evidence.durationMs.reference}/${c.evidence.durationMs.candidate}ms`) })
  writeFileSync("/tmp/difftry/live-evidence.json", JSON.stringify(evidence, null, 2))
  writeFileSync("/tmp/difftry/REPORT.md", renderReport(evidence))
})
Effect.runPromise(Effect.scoped(program)).catch((e) => { console.error(e); process.exit(1) })
