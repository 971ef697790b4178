/**
 * Restart and reset of one namespace, across every feature that keeps state for it. Above the
 * features: it clears what they own (settled runs, storage, the script, the clock, faults, journal).
 */
import { Effect } from "effect"
import { clearSettled } from "./features/runs/SettledRuns.js"
import { Agent } from "./services/Agent.js"
import { EmuClock } from "./services/Clock.js"
import { Faults } from "./services/Faults.js"
import { Gateways } from "./services/GatewayProcess.js"
import { Journal } from "./services/Journal.js"
import { clearNamespace } from "./services/Storage.js"

/** Restart as a process restart would: live runs end, memory is dropped, storage stays. */
export const restartNamespace = (namespace: string) =>
  Effect.flatMap(Gateways, (g) => g.restart(namespace)).pipe(Effect.zipRight(clearSettled(namespace)), Effect.asVoid)

/** Forget everything of a namespace: memory, storage, script, holds, clock, faults. */
export const resetNamespace = (namespace: string) => Effect.gen(() => forgetNamespace(namespace)).pipe(Effect.orDie)

function* forgetNamespace(namespace: string) {
  yield* restartNamespace(namespace)
  // "always" approvals live in config.yaml upstream: a reset is a fresh HERMES_HOME
  yield* Effect.flatMap(Gateways, (g) => Effect.sync(() => g.get(namespace).permanentApprovals.clear()))
  yield* clearNamespace(namespace)
  yield* Effect.flatMap(Agent, (a) => a.reset(namespace))
  yield* Effect.flatMap(EmuClock, (c) => c.reset(namespace))
  yield* Effect.flatMap(Faults, (f) => f.clear(namespace))
  yield* Effect.flatMap(Journal, (j) => j.clear(namespace))
}

