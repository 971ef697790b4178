/**
 * `oracle bench`: scenarios per second against the emulator in process — generated scenarios
 * played one after another, and the same number compared emulator against emulator (the whole
 * pipeline: play both sides, normalize, diff). With `--target process|container`: the real
 * gateway's scenarios per second for each `--workers` count (benchWorkersCommand.ts).
 */
import type { FileSystem } from "@effect/platform"
import { Effect, type Scope } from "effect"
import { compareScenario } from "../compare/compareScenario.js"
import { EMPTY_REGISTER } from "../diff/DivergenceRegister.js"
import { generateScenarios } from "../generate/generateScenarios.js"
import { runScenario } from "../runner/runScenario.js"
import { emulatorInProcessTarget } from "../target/EmulatorTargets.js"
import { intFlag, oneOf, type ParsedArgs, pinOf } from "./args.js"
import { benchWorkersCommand } from "./benchWorkersCommand.js"
import type { CommandResult } from "./OracleDocument.js"

export const benchCommand = (args: ParsedArgs): Effect.Effect<CommandResult, unknown, Scope.Scope | FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const target = yield* oneOf<"inprocess" | "process" | "container">(args, "target", ["inprocess", "process", "container"], "inprocess")
    return target === "inprocess" ? yield* benchEmulator(args) : yield* benchWorkersCommand(args, target)
  })

const benchEmulator = (args: ParsedArgs) =>
  Effect.gen(function*() {
    const pin = yield* pinOf(args)
    const count = yield* intFlag(args, "runs", 500)
    const seed = yield* intFlag(args, "seed", 1)
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
    const round = (n: number) => Math.round(n * 10) / 10
    const exitCode = divergent === 0 ? (0 as const) : (1 as const)
    const document = {
      command: "bench",
      exitCode,
      pin,
      seed,
      scenarios: scenarios.length,
      steps,
      played: { seconds: round(played), scenariosPerSecond: round(scenarios.length / played), stepsPerSecond: round(steps / played) },
      compared: { seconds: round(compared), comparisonsPerSecond: round(scenarios.length / compared), notEqual: divergent }
    } as const
    const text = [
      `pin ${pin}, seed ${seed}: ${scenarios.length} generated scenarios, ${steps} steps (${(steps / scenarios.length).toFixed(1)} per scenario)`,
      `played on the emulator in process:   ${document.played.scenariosPerSecond} scenarios/s, ${document.played.stepsPerSecond} steps/s (${played.toFixed(2)} s)`,
      `compared emulator against emulator:  ${document.compared.comparisonsPerSecond} comparisons/s (${compared.toFixed(2)} s; ${divergent} not equal)`,
      ""
    ].join("\n")
    return { exitCode, text, document } satisfies CommandResult
  })
