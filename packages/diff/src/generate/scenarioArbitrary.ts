/**
 * Scenarios as fast-check model-based command sequences. A sequence is turned into a Scenario by
 * running it against the model (fc.modelRun), so shrinking — which drops commands and skips those
 * whose precondition no longer holds — always yields a valid, self-consistent Scenario.
 */
import * as fc from "fast-check"
import { features, isPinName, routesFor } from "../coverage/emulatorRoutes.js"
import type { GatewayProfile } from "../profile/GatewayProfile.js"
import type { Scenario } from "../scenario/Scenario.js"
import { applySweep, type GenModel, initialModel, ScenarioBuilder } from "./GenModel.js"
import { type GenCommand } from "./operations/Operation.js"
import { OPERATION_COMMANDS } from "./operations/index.js"

export interface GeneratorOptions {
  readonly pin: string
  readonly maxCommands?: number
  /** The gateway profile the scenarios are played on (default strict): its operations, its `profile`. */
  readonly profile?: GatewayProfile
}

const pinFeatures = (pin: string) => {
  if (!isPinName(pin)) throw new Error(`no emulator profile for pin ${pin}`)
  return features(pin)
}

/** The operations whose routes the emulator has on this pin, generated for this profile. */
export const activeOperations = (pin: string, profile: GatewayProfile = "strict") => {
  const routes = new Set(routesFor(pinFeatures(pin)).map((r: { readonly id: string }) => r.id))
  return OPERATION_COMMANDS.filter((op) => op.requiresRoutes.every((id) => routes.has(id)) && (op.profiles ?? [profile]).includes(profile))
}

/** Sequences of up to 30 commands: long enough to chain clock moves, restarts and the runs they act on. */
export const MAX_COMMANDS = 30

export const commandsArbitrary = (options: GeneratorOptions): fc.Arbitrary<Iterable<GenCommand>> =>
  fc.commands(
    activeOperations(options.pin, options.profile).flatMap((op) => [...op.commands(options.pin)]),
    { maxCommands: options.maxCommands ?? MAX_COMMANDS, size: "max" }
  )

/** Runs read once more at the end: where every clock move left them (a sweep due by then runs first). */
const FINAL_LOOK_RUNS = 4

const finalLook = (model: GenModel, builder: ScenarioBuilder) => {
  applySweep(model)
  for (const r of model.runs.filter((x) => x.phase !== "unknown").slice(-FINAL_LOOK_RUNS)) {
    const path = `/v1/runs/{${r.alias}.run_id}`
    builder.add(r.phase === "gone" ? { request: { method: "GET", path }, until: { httpStatus: [404], deadlineMs: 3000 }, note: "final look" } : { request: { method: "GET", path }, note: "final look" })
  }
}

/**
 * What a scenario must not leave behind on a gateway that outlives it: a cron job would fire
 * during later scenarios (its agent turn takes their Script turns), so live jobs are deleted last.
 */
const cleanUp = (model: GenModel, builder: ScenarioBuilder) => {
  finalLook(model, builder)
  for (const job of model.jobs.filter((j) => !j.deleted)) {
    builder.add({ request: { method: "DELETE", path: `/api/jobs/{${job.alias}.job.id}` }, note: "cleanup: a job must not fire in later scenarios" })
    job.deleted = true
  }
}

/** A generated scenario is named for the operations it chains (`suffix` keeps names apart). */
export const chainName = (path: ReadonlyArray<string>, suffix: string): string =>
  `${path.length === 0 ? "(no operation)" : path.join(" → ")}${suffix === "" ? "" : ` ${suffix}`}`

const finish = (builder: ScenarioBuilder, suffix: string, origin: Scenario["origin"], profile: GatewayProfile) => {
  const scenario = builder.build(chainName(builder.path, suffix), { ...origin, generator: `commands: ${builder.path.join(", ") || "(none)"}` })
  return profile === "strict" ? scenario : { ...scenario, profile }
}

export const buildScenario = (commands: Iterable<GenCommand>, pin: string, suffix: string, origin: Scenario["origin"], profile: GatewayProfile = "strict"): Scenario => {
  const builder = new ScenarioBuilder()
  const model = initialModel(pin, pinFeatures(pin), profile === "wall-clock") as GenModel
  fc.modelRun(() => ({ model, real: builder }), commands)
  cleanUp(model, builder)
  return finish(builder, suffix, origin, profile)
}

/**
 * The same, for a plain list, also returning the commands whose precondition held (the ones that
 * made steps): what the post-shrink minimization removes commands from.
 */
export const buildFromList = (commands: ReadonlyArray<GenCommand>, pin: string, suffix: string, origin: Scenario["origin"], profile: GatewayProfile = "strict") => {
  const builder = new ScenarioBuilder()
  const model = initialModel(pin, pinFeatures(pin), profile === "wall-clock")
  const executed: Array<GenCommand> = []
  for (const c of commands) {
    if (!c.check(model)) continue
    c.run(model, builder)
    executed.push(c)
  }
  cleanUp(model, builder)
  return { scenario: finish(builder, suffix, origin, profile), executed }
}
