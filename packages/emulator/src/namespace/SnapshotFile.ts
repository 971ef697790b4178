/**
 * The snapshot file: one namespace's durable state (what a data dir holds for it) as JSON, rows
 * per table. It is tied to the Hermes pin it was saved under, because the pins persist different
 * things (0.21.0's runs ledger).
 */
import { Schema } from "effect"

export const SNAPSHOT_FORMAT = "hermetic-snapshot"

export const SnapshotCell = Schema.Union(Schema.String, Schema.Number, Schema.Null)

export const SnapshotFile = Schema.Struct({
  format: Schema.Literal(SNAPSHOT_FORMAT),
  version: Schema.Literal(1),
  /** The pin the emulator emulated when saving; loading under another pin is refused. */
  hermesVersion: Schema.String,
  /** The namespace it was saved from (a load may target another). */
  namespace: Schema.String,
  /** The namespace's clock when saved (seconds). */
  savedAt: Schema.Number,
  /** Rows of each durable table, without their namespace column. */
  tables: Schema.Record({ key: Schema.String, value: Schema.Array(Schema.Record({ key: Schema.String, value: SnapshotCell })) })
})
export type SnapshotFile = typeof SnapshotFile.Type
