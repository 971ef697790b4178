/**
 * One emulated operation's contribution to generation: fast-check command arbitraries over the
 * shared model. Adding an operation is one file exporting an OperationCommands, listed in
 * operations/index.ts; it is generated only where the emulator's route table has its routes.
 */
import type * as fc from "fast-check"
import type { GatewayProfile } from "../../profile/GatewayProfile.js"
import { applySweep, type GenModel, type ScenarioBuilder } from "../GenModel.js"

export type GenCommand = fc.Command<GenModel, ScenarioBuilder>

export interface OperationCommands {
  readonly id: string
  /** Emulator route ids that must exist on the pin for these commands to be generated. */
  readonly requiresRoutes: ReadonlyArray<string>
  /** Gateway profiles it is generated for (every profile when absent). */
  readonly profiles?: ReadonlyArray<GatewayProfile>
  readonly commands: (pin: string) => ReadonlyArray<fc.Arbitrary<GenCommand>>
}

/**
 * A command from a precondition and a step writer; `label` is what fast-check prints in paths.
 * Its first request wakes the gateway's event loop: a sweep due by then runs first (applySweep).
 */
export const command = (label: string, check: (m: Readonly<GenModel>) => boolean, run: (m: GenModel, b: ScenarioBuilder) => void): GenCommand => ({
  check,
  run: (m, b) => {
    b.path.push(label)
    applySweep(m)
    run(m, b)
  },
  toString: () => label
})

/** A command that sends no request to the gateway (a clock move): it wakes no sweep. */
export const quietCommand = (label: string, check: (m: Readonly<GenModel>) => boolean, run: (m: GenModel, b: ScenarioBuilder) => void): GenCommand => ({
  check,
  run: (m, b) => {
    b.path.push(label)
    run(m, b)
  },
  toString: () => label
})
