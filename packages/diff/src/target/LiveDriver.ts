/**
 * What a live target (emulator or real gateway) must be able to do, as Effects. `liveTarget`
 * turns a driver into a Target: it sends requests with the right auth, polls `until`, reads SSE.
 * A failure is an Error saying what went wrong; liveTarget makes it the step's TargetError.
 */
import type { ReceivedCall, Script } from "@hermetic/script"
import { Effect } from "effect"
import type { ClockCommand } from "../scenario/Scenario.js"

/**
 * The HTTP edge: a fetch-shaped function (global fetch over a socket, or the emulator's in-process
 * fetch) as an Effect; its rejection (e.g. "fetch failed") is the failure.
 */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>

export const fetchEffect = (fetch: Fetch, url: string, init: RequestInit): Effect.Effect<Response, Error> =>
  Effect.tryPromise({
    try: () => fetch(url, init),
    catch: (e) => (e instanceof Error ? e : new Error(String(e)))
  })

export interface LiveDriver {
  /** The response to a request against the target (path includes the query). */
  readonly fetch: (path: string, init: RequestInit) => Effect.Effect<Response, Error>
  readonly apiKey: string
  /** Extra headers every request carries (e.g. the emulator namespace); never recorded. */
  readonly hiddenHeaders: () => Readonly<Record<string, string>>
  readonly script: (script: Script) => Effect.Effect<void, Error>
  readonly release: (hold: string) => Effect.Effect<void, Error>
  /** Whether a model reply is waiting on this hold right now. */
  readonly isHeld: (hold: string) => Effect.Effect<boolean, Error>
  readonly clock: (command: ClockCommand) => Effect.Effect<void, Error>
  readonly restart: (crash: boolean) => Effect.Effect<void, Error>
  readonly reset: Effect.Effect<void, Error>
  /** Start (true) or end (false) refusing new agent work, returning once the target does so. */
  readonly drain: (on: boolean) => Effect.Effect<void, Error>
  /** The model calls answered since the scenario began, messages as the model got them (ReceivedCalls.ts). */
  readonly modelCalls: Effect.Effect<ReadonlyArray<ReceivedCall>, Error>
  readonly begin: Effect.Effect<void, Error>
  readonly end: (holds: ReadonlyArray<string>) => Effect.Effect<void, Error>
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
