/**
 * N workers for a comparison: each a real gateway (its own fake model, HERMES_HOME and port) or
 * the cassettes, paired with its own emulator, in process or over HTTP on a loopback port. The first gateway starts alone (it may
 * have to build the venv), the others side by side; all stop when the scope closes.
 */
import { Effect } from "effect"
import type { Worker } from "../compare/compareAll.js"
import { emulatorOptionsFor, type GatewayProfile } from "../profile/GatewayProfile.js"
import { emulatorHttpTarget, emulatorInProcessTarget } from "../target/EmulatorTargets.js"
import type { GatewayLauncher } from "../target/GatewayTarget.js"
import type { Target } from "../target/Target.js"
import { progress } from "./progress.js"
import { realReference } from "./referenceTarget.js"

/** Where the emulator compared runs: in process (its Layer and fetch) or over HTTP (its socket server, what the CLI serves). */
export type CandidateKind = "inprocess" | "http"

export const startWorkers = (
  pin: "0.19.0" | "0.21.0",
  reference: GatewayLauncher | Target,
  count: number,
  source?: string,
  profile: GatewayProfile = "strict",
  fresh = false,
  candidateKind: CandidateKind = "inprocess",
  checkLeftState = false
) =>
  Effect.gen(function*() {
    const candidate = () =>
      candidateKind === "http"
        ? emulatorHttpTarget({ pin, emulatorOptions: emulatorOptionsFor(profile) })
        : emulatorInProcessTarget({ pin, emulatorOptions: emulatorOptionsFor(profile) })
    if (typeof reference !== "string") {
      return (yield* Effect.forEach(Array.from({ length: count }), () => Effect.map(candidate(), (c): Worker => ({ reference, candidate: c })))) as [Worker, ...Array<Worker>]
    }
    progress(`starting ${count} real ${pin} gateway(s) (${reference} launcher, ${profile} profile${fresh ? ", a fresh gateway per scenario play" : ""})…`)
    const label = (n: number) => (count > 1 ? `gateway ${n}` : "gateway")
    const first = yield* realReference(pin, reference, { source, label: label(1), profile, fresh, checkLeftState })
    const rest = yield* Effect.forEach(
      Array.from({ length: count - 1 }, (_, k) => k + 2),
      (n) => realReference(pin, reference, { source, label: label(n), profile, fresh, checkLeftState }),
      { concurrency: "unbounded" }
    )
    return (yield* Effect.forEach([first, ...rest], (r) => Effect.map(candidate(), (c): Worker => ({ reference: r, candidate: c })))) as [Worker, ...Array<Worker>]
  })
