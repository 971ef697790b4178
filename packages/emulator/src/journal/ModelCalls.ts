/**
 * The model calls an agent turn makes, attributed to the request that started the turn. The app
 * puts an observer in a FiberRef around each journaled request; agent turns (also those a request
 * forks, like a run's) inherit it and report the transcript they would send before each call. When
 * no one listens (journal bodies off) the ref is empty and the agent loop does no work.
 */
import { Effect, FiberRef } from "effect"
import { pyDumps } from "../python/index.js"

/** One model call: the namespace clock's time and the messages the agent sends (its transcript). */
export interface ModelCall {
  readonly at: number
  readonly messages: ReadonlyArray<unknown>
  /** True when the messages were longer than the journal's bound and are left out. */
  readonly truncated: boolean
}

export type ModelCallObserver = (messages: ReadonlyArray<Record<string, unknown>>) => void

export const CurrentModelCallObserver: FiberRef.FiberRef<ModelCallObserver | undefined> = FiberRef.unsafeMake<ModelCallObserver | undefined>(undefined)

/** Called by the agent loop before each model call. */
export const observeModelCall = (messages: ReadonlyArray<Record<string, unknown>>): Effect.Effect<void> =>
  Effect.map(FiberRef.get(CurrentModelCallObserver), (observe) => observe?.(messages))

/**
 * The transcript as plain JSON, without the agent's own bookkeeping keys (`_db_persisted`): what a
 * model would receive, less Hermes' system prompt.
 */
export const modelMessagesJson = (messages: ReadonlyArray<Record<string, unknown>>): string =>
  pyDumps(messages.map((m) => Object.fromEntries(Object.entries(m).filter(([k]) => !k.startsWith("_")))), false)
