/**
 * What `oracle <command> --json` writes to stdout: one JSON document, its shape a Schema (the
 * human-readable summary goes to stdout without --json; progress always goes to stderr).
 */
import { Schema } from "effect"
import { Summary, Verdict } from "../evidence/Evidence.js"

const ExitCode = Schema.Literal(0, 1, 2)

const WrittenFiles = Schema.Struct({ json: Schema.String, report: Schema.String, html: Schema.String, junit: Schema.String })

/** A scenario's outcome, one line of the summary table. */
export const ScenarioOutcome = Schema.Struct({
  name: Schema.String,
  verdict: Verdict,
  divergences: Schema.Number,
  tolerated: Schema.Number,
  error: Schema.optional(Schema.String)
})

/** compare, replay (against a reference) and merge: the evidence's summary and verdicts, and where it was written. */
export const ComparisonDocument = Schema.Struct({
  command: Schema.Literal("compare", "replay", "merge"),
  exitCode: ExitCode,
  summary: Summary,
  scenarios: Schema.Array(ScenarioOutcome),
  /** Absent when nothing was written (replay without --out). */
  written: Schema.optional(WrittenFiles)
})

/** replay on the emulator alone: the normalized exchanges. */
export const PlayDocument = Schema.Struct({
  command: Schema.Literal("replay-play"),
  exitCode: ExitCode,
  scenario: Schema.String,
  steps: Schema.Array(Schema.Unknown)
})

export const ReportDocument = Schema.Struct({
  command: Schema.Literal("report"),
  exitCode: ExitCode,
  newDivergences: Schema.Number,
  fixedDivergences: Schema.Number,
  markdown: Schema.String,
  /** The HTML report of the head evidence. */
  html: Schema.String,
  written: Schema.optional(Schema.String)
})

export const BenchDocument = Schema.Struct({
  command: Schema.Literal("bench"),
  exitCode: ExitCode,
  pin: Schema.String,
  seed: Schema.Number,
  scenarios: Schema.Number,
  steps: Schema.Number,
  played: Schema.Struct({ seconds: Schema.Number, scenariosPerSecond: Schema.Number, stepsPerSecond: Schema.Number }),
  compared: Schema.Struct({ seconds: Schema.Number, comparisonsPerSecond: Schema.Number, notEqual: Schema.Number })
})

export const BenchWorkersDocument = Schema.Struct({
  command: Schema.Literal("bench-workers"),
  exitCode: ExitCode,
  written: Schema.String,
  points: Schema.Array(
    Schema.Struct({ workers: Schema.Number, scenarios: Schema.Number, divergent: Schema.Number, errors: Schema.Number, wallSeconds: Schema.Number, scenariosPerSecond: Schema.Number })
  )
})

/** oracle fuzz: the counts of its verdict line (per mode: equal / explained / divergent, or the in-process checks), and the evidence file. */
export const FuzzDocument = Schema.Struct({
  command: Schema.Literal("fuzz"),
  mode: Schema.Literal("live", "in-process", "upload-probes"),
  exitCode: ExitCode,
  counts: Schema.Record({ key: Schema.String, value: Schema.Number }),
  written: Schema.String
})

export const OracleDocument = Schema.Union(ComparisonDocument, PlayDocument, ReportDocument, BenchDocument, BenchWorkersDocument, FuzzDocument)
export type OracleDocument = typeof OracleDocument.Type

/** What a command hands back: its exit code, the text for a reader, and the same as a document for --json. */
export interface CommandResult {
  readonly exitCode: 0 | 1 | 2
  readonly text: string
  /** Absent for commands without --json (record, wire, schema). */
  readonly document?: OracleDocument
}
