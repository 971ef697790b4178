/**
 * The signal that stops an agent turn (Hermes' agent.interrupt): set by a run's stop or by a
 * streaming client that went away; the loop checks it between model calls and races it against a
 * held reply.
 * Not an Effect Deferred: making one copies Effect's whole prototype into the new object (~5 µs and
 * ~2 KB each, measured), and every run and streamed chat makes one; a Latch costs ~0.3 µs.
 */
import { Effect } from "effect"

export class Interrupt {
  #set = false
  readonly #latch = Effect.unsafeMakeLatch(false)

  /** Whether the turn was told to stop. */
  get isSet(): boolean {
    return this.#set
  }

  /** Tells the turn to stop (again: nothing more happens). */
  get set(): Effect.Effect<void> {
    return Effect.suspend(() => {
      this.#set = true
      return this.#latch.open
    })
  }

  /** Completes once the turn was told to stop. */
  get await(): Effect.Effect<void> {
    return this.#latch.await
  }
}
