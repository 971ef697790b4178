/**
 * A namespace's lifecycle as Effects: restart it as a process restart would, reset it (forget
 * everything), save its durable tables as a snapshot and load one back. The control plane's
 * commands call this service; its default implementation (NamespaceLive.ts) sits above the
 * features whose state it clears, so no feature imports another to restart a namespace.
 */
import { Context, Data, type Effect } from "effect"
import type { SnapshotFile } from "./SnapshotFile.js"

export class SnapshotError extends Data.TaggedError("SnapshotError")<{ readonly message: string }> {}

export interface NamespaceShape {
  /** Live runs end, memory is dropped, storage stays. */
  readonly restart: (namespace: string) => Effect.Effect<void>
  /** Memory, storage, script, holds, clock, faults and journal: all forgotten. */
  readonly reset: (namespace: string) => Effect.Effect<void>
  /** The namespace's durable rows, as a snapshot document. */
  readonly save: (namespace: string) => Effect.Effect<SnapshotFile>
  /** Decodes a snapshot and replaces the namespace's durable state with it; the rows loaded per table. */
  readonly load: (namespace: string, snapshot: unknown) => Effect.Effect<Record<string, number>, SnapshotError>
}

export class Namespace extends Context.Tag("hermetic/Namespace")<Namespace, NamespaceShape>() {}
