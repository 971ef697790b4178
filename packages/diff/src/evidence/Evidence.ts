/**
 * The evidence of one comparison: schema-versioned JSON that REPORT.md and the JUnit XML are
 * rendered from. Its JSON Schema is generated from this Schema and committed as
 * packages/diff/schema/evidence.schema.json (a test keeps the two equal).
 */
import { Schema } from "effect"
import { Difference } from "../diff/Difference.js"
import { RegisterEntry } from "../diff/DivergenceRegister.js"
import { JsonValue } from "../json/JsonValue.js"
import { NoiseObservation } from "../noise/LearnedNoise.js"
import { NormalizedStep, TimeRelation } from "../normalize/NormalizedRun.js"

export const EVIDENCE_SCHEMA_VERSION = 1 as const

export const TargetDescription = Schema.Struct({
  kind: Schema.String,
  pin: Schema.String,
  real: Schema.Boolean,
  clock: Schema.Literal("pinned", "running"),
  description: Schema.String
})

export const Provenance = Schema.Struct({
  pin: Schema.String,
  reference: TargetDescription,
  candidate: TargetDescription,
  /** The pin's entry of source-lock.json, verbatim. */
  sourceLock: Schema.optional(JsonValue),
  /** Installed versions on the reference side (hermes-agent, aiohttp, python, …) when it is the real gateway. */
  installed: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  launcher: Schema.optional(Schema.String),
  emulatorCommit: Schema.String,
  /** True when packages/emulator had uncommitted changes at comparison time. */
  emulatorDirty: Schema.Boolean,
  node: Schema.String,
  seed: Schema.optional(Schema.Number),
  runs: Schema.Number,
  command: Schema.String,
  startedAt: Schema.String,
  finishedAt: Schema.String
})
export type Provenance = typeof Provenance.Type

export const Classification = Schema.Literal("divergence", "noise", "registered")
export type Classification = typeof Classification.Type

export const ClassifiedDifference = Schema.Struct({
  ...Difference.fields,
  classification: Classification,
  /** Why it is tolerated (register entry id + reason, or the noise observation). */
  reason: Schema.optional(Schema.String)
})
export type ClassifiedDifference = typeof ClassifiedDifference.Type

export const Verdict = Schema.Literal("equal", "tolerated", "divergent", "error")
export type Verdict = typeof Verdict.Type

export const StepEvidence = Schema.Struct({
  index: Schema.Number,
  kind: Schema.String,
  note: Schema.optional(Schema.String),
  /** The step as the scenario wrote it. */
  step: JsonValue,
  verdict: Verdict,
  reference: Schema.optional(NormalizedStep),
  candidate: Schema.optional(NormalizedStep),
  differences: Schema.Array(ClassifiedDifference)
})
export type StepEvidence = typeof StepEvidence.Type

export const ScenarioEvidence = Schema.Struct({
  name: Schema.String,
  file: Schema.optional(Schema.String),
  origin: Schema.optional(JsonValue),
  verdict: Verdict,
  /** Why the scenario could not be compared (a target failed). */
  error: Schema.optional(Schema.String),
  durationMs: Schema.Struct({ reference: Schema.Number, candidate: Schema.Number }),
  steps: Schema.Array(StepEvidence),
  /** Differences not tied to one step (time relations across steps). */
  differences: Schema.Array(ClassifiedDifference),
  relations: Schema.Struct({ reference: Schema.Array(TimeRelation), candidate: Schema.Array(TimeRelation) })
})
export type ScenarioEvidence = typeof ScenarioEvidence.Type

export const AppliedRule = Schema.Struct({
  id: Schema.String,
  applies: Schema.String,
  action: Schema.String,
  reason: Schema.String,
  fired: Schema.Struct({ reference: Schema.Number, candidate: Schema.Number })
})

export const CoverageCell = Schema.Struct({
  status: Schema.Number,
  /** The emulator answered this status for this operation in this comparison. */
  exercised: Schema.Boolean,
  /** The real gateway answered it too, in an exchange without a divergence. */
  verified: Schema.Boolean,
  /** The real gateway answered it (whatever the emulator did). */
  seenOnReal: Schema.Boolean
})

export const CoverageRow = Schema.Struct({
  operation: Schema.String,
  method: Schema.String,
  path: Schema.String,
  /** The emulator's route table has this operation on this pin. */
  implemented: Schema.Boolean,
  statuses: Schema.Array(CoverageCell)
})
export type CoverageRow = typeof CoverageRow.Type

export const Summary = Schema.Struct({
  scenarios: Schema.Number,
  equal: Schema.Number,
  tolerated: Schema.Number,
  divergent: Schema.Number,
  errors: Schema.Number,
  steps: Schema.Number,
  exchanges: Schema.Number,
  differences: Schema.Struct({ divergence: Schema.Number, noise: Schema.Number, registered: Schema.Number }),
  scenariosPerSecond: Schema.Struct({ reference: Schema.Number, candidate: Schema.Number })
})
export type Summary = typeof Summary.Type

export const Evidence = Schema.Struct({
  schema: Schema.Literal("hermetic/evidence"),
  schemaVersion: Schema.Literal(EVIDENCE_SCHEMA_VERSION),
  provenance: Provenance,
  summary: Summary,
  normalization: Schema.Struct({ clock: Schema.Literal("pinned", "running"), rules: Schema.Array(AppliedRule) }),
  noise: Schema.Struct({
    /** How noise was learned: "two real runs per scenario", or why it was not. */
    method: Schema.String,
    observations: Schema.Array(NoiseObservation)
  }),
  register: Schema.Array(Schema.Struct({ ...RegisterEntry.fields, hits: Schema.Number })),
  scenarios: Schema.Array(ScenarioEvidence),
  coverage: Schema.Array(CoverageRow)
}).annotations({ identifier: "HermeticEvidence", title: "hermetic comparison evidence" })
export type Evidence = typeof Evidence.Type
