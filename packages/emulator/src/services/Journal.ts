/**
 * A bounded journal of the requests the emulator answered: metadata only (no bodies, no header
 * values, so no secrets), newest last.
 */
import { Context, Effect, Layer } from "effect"

export interface JournalEntry {
  readonly at: number
  readonly namespace: string
  readonly method: string
  readonly path: string
  readonly route: string | null
  readonly status: number
  readonly durationMs: number
  readonly fault: string | null
}

export interface JournalShape {
  readonly record: (entry: JournalEntry) => void
  readonly entries: (namespace: string | undefined) => Effect.Effect<ReadonlyArray<JournalEntry>>
  readonly clear: (namespace: string) => Effect.Effect<void>
}

export class Journal extends Context.Tag("hermetic/Journal")<Journal, JournalShape>() {}

export const makeJournal = (capacity = 1000): JournalShape => {
  // a ring: recording is O(1) on every request; reading (rare) puts the entries back in order
  let ring: Array<JournalEntry> = []
  let next = 0
  const inOrder = (): Array<JournalEntry> => (ring.length < capacity ? ring : [...ring.slice(next), ...ring.slice(0, next)])
  return {
    record: (entry) => {
      if (ring.length < capacity) ring.push(entry)
      else {
        ring[next] = entry
        next = (next + 1) % capacity
      }
    },
    entries: (ns) => Effect.sync(() => (ns === undefined ? [...inOrder()] : inOrder().filter((e) => e.namespace === ns))),
    clear: (ns) =>
      Effect.sync(() => {
        ring = inOrder().filter((e) => e.namespace !== ns)
        next = 0
      })
  }
}

export const JournalLive = (capacity = 1000) => Layer.sync(Journal, () => makeJournal(capacity))
