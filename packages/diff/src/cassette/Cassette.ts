/**
 * A cassette: one Scenario recorded against the real gateway, with the pin and provenance. It
 * holds the recorded runs (two when noise was learned, so the noise can be learned again offline);
 * replay plays the first. Files are pretty JSON with sorted keys; response bodies are the exact
 * text received, so key order and number formats survive.
 */
import { Schema } from "effect"
import { JsonValue } from "../json/JsonValue.js"
import { ScenarioRun } from "../runner/ScenarioRun.js"
import { Scenario } from "../scenario/Scenario.js"

export const CASSETTE_VERSION = 1 as const

export const Cassette = Schema.Struct({
  schema: Schema.Literal("hermetic/cassette"),
  version: Schema.Literal(CASSETTE_VERSION),
  pin: Schema.String,
  scenario: Scenario,
  provenance: Schema.Struct({
    recordedAt: Schema.String,
    launcher: Schema.String,
    target: Schema.String,
    installed: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
    sourceLock: Schema.optional(JsonValue),
    hermeticCommit: Schema.String,
    node: Schema.String
  }),
  runs: Schema.NonEmptyArray(ScenarioRun)
}).annotations({ identifier: "HermeticCassette" })
export type Cassette = typeof Cassette.Type

/** A file name for a scenario: lower-case words joined by dashes. */
export const cassetteSlug = (name: string) =>
  name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 80) || "scenario"

/**
 * A cassette's file name: a generated scenario's (its name is its command chain, too long to tell
 * apart once cut) is named for the seed and path that generate it again; a written one by its name.
 */
export const cassetteFileName = (scenario: Scenario): string =>
  scenario.origin?.seed !== undefined && scenario.origin.path !== undefined
    ? `generated-seed-${scenario.origin.seed}-${cassetteSlug(scenario.origin.path)}.json`
    : `${cassetteSlug(scenario.name)}.json`
