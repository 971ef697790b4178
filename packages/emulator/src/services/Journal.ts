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
  let buffer: Array<JournalEntry> = []
  return {
    record: (entry) => {
      buffer.push(entry)
      if (buffer.length > capacity) buffer = buffer.slice(buffer.length - capacity)
    },
    entries: (ns) => Effect.sync(() => (ns === undefined ? [...buffer] : buffer.filter((e) => e.namespace === ns))),
    clear: (ns) => Effect.sync(() => void (buffer = buffer.filter((e) => e.namespace !== ns)))
  }
}

export const JournalLive = (capacity = 1000) => Layer.sync(Journal, () => makeJournal(capacity))
