/**
 * What a live target (emulator or real gateway) must be able to do, in plain Promises. `liveTarget`
 * turns a driver into a Target: it sends requests with the right auth, polls `until`, reads SSE.
 */
import type { Script } from "@hermetic/script"
import type { ClockCommand } from "../scenario/Scenario.js"

export interface LiveDriver {
  /** fetch against the target (path includes the query). */
  readonly fetch: (path: string, init: RequestInit) => Promise<Response>
  readonly apiKey: string
  /** Extra headers every request carries (e.g. the emulator namespace); never recorded. */
  readonly hiddenHeaders: () => Readonly<Record<string, string>>
  readonly script: (script: Script) => Promise<void>
  readonly release: (hold: string) => Promise<void>
  /** Whether a model reply is waiting on this hold right now. */
  readonly isHeld: (hold: string) => Promise<boolean>
  readonly clock: (command: ClockCommand) => Promise<void>
  readonly restart: (crash: boolean) => Promise<void>
  readonly reset: () => Promise<void>
  /** Start (true) or end (false) refusing new agent work, returning once the target does so. */
  readonly drain: (on: boolean) => Promise<void>
  readonly begin: () => Promise<void>
  readonly end: (holds: ReadonlyArray<string>) => Promise<void>
  /** Pause between `until` polls. */
  readonly pollIntervalMs: number
  /**
   * How many times a scenario's `until` / `awaitHold` deadline this target may take (1 when
   * absent): a settle point is about state, not speed, and the real gateway on a loaded machine
   * can take many times longer to get there.
   */
  readonly deadlineScale?: number
  /** How long an SSE read may wait for the next frame before it is cut (recorded as "deadline"). */
  readonly sseDeadlineMs: number
}

/** A key that is never the target's: what `auth: "wrong"` sends. */
export const WRONG_API_KEY = "wrong-key-hermetic-0000000000000000"
