/**
 * One interface for every place a Scenario can be played: the emulator in process, the emulator
 * over HTTP, the real gateway, a cassette. The runner resolves references and hands each step to
 * `apply`, which returns what happened (the exchanges and, for `until`, whether it settled).
 */
import { Data, type Effect } from "effect"
import type { Exchange } from "../exchange/Exchange.js"
import type { Scenario, Step } from "../scenario/Scenario.js"

export type TargetKind = "emulator-inprocess" | "emulator-http" | "gateway-process" | "gateway-container" | "cassette"

export interface TargetInfo {
  readonly kind: TargetKind
  readonly pin: string
  /** Whether this target's answers come from the real Hermes gateway (directly or recorded). */
  readonly real: boolean
  /** "pinned": timestamps are deterministic and compared exactly; "running": compared as relations. */
  readonly clock: "pinned" | "running"
  readonly description: string
}

/** What one step did on one target. Control steps (script, release, …) have no exchanges. */
export interface StepOutcome {
  readonly exchanges: ReadonlyArray<Exchange>
  /** For `until`: how many requests were sent (timing-dependent, recorded but never compared). */
  readonly attempts?: number
  /** For `until`: whether the condition held before the deadline. */
  readonly settled?: boolean
}

/** The target could not do what the step asked: the oracle could not run (exit 2), never a pass. */
export class TargetError extends Data.TaggedError("TargetError")<{
  readonly target: TargetKind
  readonly reason: string
}> {
  override get message(): string {
    return `${this.target}: ${this.reason}`
  }
}

export interface Target {
  readonly info: TargetInfo
  /** Start a scenario on fresh state. */
  readonly begin: (scenario: Scenario) => Effect.Effect<void, TargetError>
  /** Play one step; references in it are already resolved. */
  readonly apply: (step: Step, index: number) => Effect.Effect<StepOutcome, TargetError>
  /** The `{play.nonce}` to play with; fresh when absent (a cassette answers with the recorded one). */
  readonly playNonce?: () => string | undefined
  /** Let go of what the scenario left behind (held replies, live runs). */
  readonly end: (scenario: Scenario) => Effect.Effect<void, TargetError>
}
