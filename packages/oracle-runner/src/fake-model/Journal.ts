/** Every request the fake model received, in order, with what it answered. Read via GET /__admin/journal. */
import { Schema } from "effect"

export const ReplyRef = Schema.Union(
  Schema.Struct({ source: Schema.Literal("script"), turn: Schema.Number, reply: Schema.Number, skippedReplies: Schema.Number }),
  Schema.Struct({ source: Schema.Literal("script-sticky-error"), turn: Schema.Number, reply: Schema.Number }),
  Schema.Struct({ source: Schema.Literal("housekeeping-default"), task: Schema.String }),
  Schema.Struct({ source: Schema.Literal("exhausted-default"), why: Schema.String }),
  Schema.Struct({ source: Schema.Literal("static") })
)
export type ReplyRef = typeof ReplyRef.Type

export const JournalEntry = Schema.Struct({
  seq: Schema.Number,
  /** ISO time the request arrived (the fake model's own clock, not faketime's). */
  at: Schema.String,
  method: Schema.String,
  path: Schema.String,
  kind: Schema.Literal("main", "housekeeping", "models", "probe", "invalid"),
  housekeeping: Schema.optional(Schema.String),
  model: Schema.optional(Schema.String),
  messageCount: Schema.optional(Schema.Number),
  lastRole: Schema.optional(Schema.String),
  /** The first 120 characters of the last user message, to tell turns apart when reading a journal. */
  lastUser: Schema.optional(Schema.String),
  stream: Schema.optional(Schema.Boolean),
  hasTools: Schema.optional(Schema.Boolean),
  reply: Schema.optional(ReplyRef),
  status: Schema.optional(Schema.Number),
  hold: Schema.optional(Schema.String),
  outcome: Schema.Literal("pending", "held", "sent", "client-closed", "dropped-by-reset")
})
export type JournalEntry = typeof JournalEntry.Type

type Mutable<T> = { -readonly [K in keyof T]: T[K] }
export type OpenEntry = Mutable<JournalEntry>

export class Journal {
  private entries: Array<OpenEntry> = []
  private seq = 0

  open(init: Omit<OpenEntry, "seq" | "at" | "outcome">): OpenEntry {
    const e: OpenEntry = { seq: this.seq++, at: new Date().toISOString(), outcome: "pending", ...init }
    this.entries.push(e)
    return e
  }

  list(): ReadonlyArray<JournalEntry> {
    return this.entries.map((e) => ({ ...e }))
  }

  clear(): void {
    this.entries = []
    this.seq = 0
  }
}
