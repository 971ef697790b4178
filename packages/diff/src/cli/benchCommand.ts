/**
 * `oracle bench`: scenarios per second against the emulator in process — generated scenarios
 * played one after another, and the same number compared emulator against emulator (the whole
 * pipeline: play both sides, normalize, diff). With `--target process|container`: the real
 * gateway's scenarios per second for each `--workers` count (benchWorkersCommand.ts).
 */
import { Effect } from "effect"
import { compareScenario } from "../compare/compareScenario.js"
import { EMPTY_REGISTER } from "../diff/DivergenceRegister.js"
import { generateScenarios } from "../generate/generateScenarios.js"
import { runScenario } from "../runner/runScenario.js"
import { emulatorInProcessTarget } from "../target/EmulatorTargets.js"
import { intFlag, type ParsedArgs, pinOf } from "./args.js"
import { benchWorkersCommand } from "./benchWorkersCommand.js"

export const benchCommand = (args: ParsedArgs) =>
  args.values.target === "process" || args.values.target === "container" ? benchWorkersCommand(args, args.values.target) : benchEmulator(args)

const benchEmulator = (args: ParsedArgs) =>
  Effect.gen(function*() {
    const pin = pinOf(args)
    const count = intFlag(args, "runs", 500)
    const seed = intFlag(args, "seed", 1)
    const scenarios = generateScenarios({ seed, count, pin })
    const steps = scenarios.reduce((n, s) => n + s.steps.length, 0)
    const a = yield* emulatorInProcessTarget({ pin })
    const b = yield* emulatorInProcessTarget({ pin })
    const t0 = performance.now()
    for (const s of scenarios) yield* runScenario(a, s)
    const played = (performance.now() - t0) / 1000
    const t1 = performance.now()
    let divergent = 0
    for (const s of scenarios) {
      const c = yield* compareScenario(a, b, s, { register: EMPTY_REGISTER, pin })
      if (c.evidence.verdict !== "equal") divergent++
    }
    const compared = (performance.now() - t1) / 1000
    const rate = (n: number, secs: number) => (n / secs).toFixed(1)
    process.stdout.write(
      [
        `pin ${pin}, seed ${seed}: ${scenarios.length} generated scenarios, ${steps} steps (${(steps / scenarios.length).toFixed(1)} per scenario)`,
        `played on the emulator in process:   ${rate(scenarios.length, played)} scenarios/s, ${rate(steps, played)} steps/s (${played.toFixed(2)} s)`,
        `compared emulator against emulator:  ${rate(scenarios.length, compared)} comparisons/s (${compared.toFixed(2)} s; ${divergent} not equal)`,
        ""
      ].join("\n")
    )
    return divergent === 0 ? (0 as const) : (1 as const)
  })
