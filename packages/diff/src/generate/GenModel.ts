/**
 * The generator's model of the server, and the builder that collects the Scenario's steps. Commands
 * consult the model to refer to ids they created (`{r3.run_id}`) and to keep every step
 * deterministic on the real gateway: a run is only polled where it settles, a held run is only
 * stopped while it is held, a clock jump only crosses a retention boundary with a margin.
 */
import type { Features } from "@hermetic/emulator"
import type { Script } from "@hermetic/script"
import type { JsonValue } from "../json/JsonValue.js"
import type { Scenario, Step } from "../scenario/Scenario.js"

export type RunPhase =
  /** its model reply is held: status "running" until released */
  | "held"
  /** stopped while held: "stopping" until the hold is released, then "cancelled" */
  | "stopping"
  /** completed, failed or cancelled; `settledAt` is the model clock when it settled */
  | "terminal"
  /** forgotten: the gateway restarted, or its status expired an hour after settling */
  | "gone"

export interface ModelRun {
  readonly alias: string
  phase: RunPhase
  readonly hold?: string
  settledAt: number
  eventsRead: boolean
  /** A clock jump since it was created: its event buffer's expiry races the sweeper, so events are not read. */
  clockMoved: boolean
}

/** Something the scenario created and may refer to later (a stored response, a session). */
export interface ModelEntity {
  readonly alias: string
  deleted: boolean
}

/** A chat completion sent with an Idempotency-Key, so a later command can replay it exactly. */
export interface KeyedChat {
  readonly key: string
  readonly body: JsonValue
}

export interface GenModel {
  readonly pin: string
  readonly features: Features
  readonly runs: Array<ModelRun>
  readonly responses: Array<ModelEntity>
  readonly sessions: Array<ModelEntity>
  readonly jobs: Array<ModelEntity>
  readonly keyedChats: Array<KeyedChat>
  /** Seconds the scenario has moved the clock so far. */
  clock: number
  /** Idempotency keys used with /v1/runs: key → the body it was first used with and the run it made. */
  readonly keys: Map<string, { readonly body: string; readonly alias: string }>
  holdCount: number
  aliasCount: number
  /**
   * Whether the server process has run an agent turn. Some answers depend on it (GET /v1/toolsets),
   * and on the real gateway it depends on every scenario played before: unknown until this scenario
   * runs a turn (warm) or restarts without one since (cold).
   */
  warmth: "unknown" | "cold" | "warm"
}

export const initialModel = (pin: string, features: Features): GenModel => ({
  pin,
  features,
  runs: [],
  responses: [],
  sessions: [],
  jobs: [],
  keyedChats: [],
  clock: 0,
  keys: new Map(),
  holdCount: 0,
  aliasCount: 0,
  warmth: "unknown"
})

export class ScenarioBuilder {
  readonly steps: Array<Step> = []
  readonly path: Array<string> = []

  add(...steps: ReadonlyArray<Step>): void {
    this.steps.push(...steps)
  }

  script(script: Script): void {
    this.steps.push({ script })
  }

  build(name: string, origin: Scenario["origin"]): Scenario {
    return { version: 1, name, ...(origin !== undefined ? { origin } : {}), steps: this.steps }
  }
}

/** The run a command refers to: `pick` chosen by fast-check, stable under shrinking. */
export const pickRun = (m: Readonly<GenModel>, pick: number, phases: ReadonlyArray<RunPhase>): ModelRun | undefined => {
  const candidates = m.runs.filter((r) => phases.includes(r.phase))
  return candidates.length === 0 ? undefined : candidates[pick % candidates.length]
}

export const newAlias = (m: GenModel, prefix = "r"): string => `${prefix}${++m.aliasCount}`

/** An entity a command refers to: `pick` chosen by fast-check, live ones only unless `deleted` is allowed. */
export const pickEntity = (list: ReadonlyArray<ModelEntity>, pick: number, includeDeleted: boolean): ModelEntity | undefined => {
  const candidates = includeDeleted ? list : list.filter((e) => !e.deleted)
  return candidates.length === 0 ? undefined : candidates[pick % candidates.length]
}
export const newHold = (m: GenModel): string => `h${++m.holdCount}`

/** Statuses of run records expire this long after their last update (upstream `_RUN_STATUS_TTL`). */
export const RUN_STATUS_TTL = 3600
