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
  /**
   * stopped while held, its stop stranded: Hermes sees a stop during a model call at the end of a
   * 0.3 s slice of loop time, and the slice armed before the loop clock went back ends only when
   * loop time is back there (years): "stopping" until the hold is released, then "cancelled"
   */
  | "stopping"
  /** completed, failed or cancelled; `settledAt` is the model clock when it settled */
  | "terminal"
  /** forgotten: the gateway restarted, or its status expired an hour after settling */
  | "gone"
  /** a sweep may or may not have dropped it by now (the loop clock's deadline was unknown): never referred to again */
  | "unknown"

export interface ModelRun {
  readonly alias: string
  phase: RunPhase
  readonly hold?: string
  settledAt: number
  eventsRead: boolean
  /** A clock jump since it was created: its event buffer's expiry races the sweeper, so events are not read. */
  clockMoved: boolean
  /** While held: the furthest loop time since its reply was held (where its model call's join slice was armed). */
  heldLoopHigh?: number
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
  /** Model wall time its answer was stamped with (the 300 s window is wall time, purged lazily). */
  at: number
}

export interface GenModel {
  readonly pin: string
  readonly features: Features
  readonly runs: Array<ModelRun>
  readonly responses: Array<ModelEntity>
  readonly sessions: Array<ModelEntity>
  readonly jobs: Array<ModelEntity>
  readonly keyedChats: Array<KeyedChat>
  /** Wall seconds the scenario has moved the clock so far (a set to a past or future instant counts as ±PAST/FUTURE_OFFSET). */
  clock: number
  /** Loop (monotonic) seconds moved so far: with the wall clock on the default profile, never on the wall-clock profile. */
  loop: number
  /**
   * Bounds on the run sweep's deadline, as loop time minus `loop`: the sweeper sleeps 60 s of loop
   * time, started when the process did (unknown phase: (0, 60]), and again after each sweep.
   */
  sweepAfter: { lo: number; hi: number }
  /** The wall-clock profile's wall clock is frozen. */
  frozen: boolean
  /** The wall-clock profile: clock moves leave the loop clock alone. */
  readonly wallOnly: boolean
  /** The furthest loop time this process has seen: below it (after a backward move) every 1 s poll of the loop, the drain marker's too, waits. */
  loopHigh: number
  /** Restarts and crashes so far: a real gateway takes seconds to come back, so a scenario has one at most. */
  restarts: number
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

export const initialModel = (pin: string, features: Features, wallOnly = false): GenModel => ({
  pin,
  features,
  loop: 0,
  sweepAfter: { lo: 0, hi: SWEEP_SECONDS },
  frozen: false,
  wallOnly,
  restarts: 0,
  loopHigh: 0,
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
/** The sweeper's sleep, of loop time. */
export const SWEEP_SECONDS = 60
/** Real seconds that may pass between two steps of a play on a loaded machine (a run took over 10 s to settle on a busy 2-core one): the margin every time comparison keeps. */
export const REAL_DRIFT = 60
/** The fixed instants a scenario sets the clock to, and about how far they are from real time (only their size matters: years). */
export const PAST_INSTANT = 1_700_000_000
export const FUTURE_INSTANT = 1_900_000_000
export const PAST_OFFSET = -1e8
export const FUTURE_OFFSET = 1e8

/**
 * Before a request: whether the sweep ran, may have run, or did not. Runs a sweep may have
 * dropped or kept, depending on when, become "unknown" (never referred to again); a sweep that
 * surely ran drops the statuses over an hour old by wall time.
 */
export const applySweep = (m: GenModel): void => {
  const { lo, hi } = m.sweepAfter
  const due = hi <= 0
  const maybe = !due && lo < REAL_DRIFT
  if (!due && !maybe) return
  for (const r of m.runs) {
    if (r.phase !== "terminal") continue
    const age = m.clock - r.settledAt
    // a wall age within the drift of the hour is a race with real seconds, swept or not
    const old = age > RUN_STATUS_TTL + REAL_DRIFT
    const young = age < RUN_STATUS_TTL - REAL_DRIFT
    if (due && old) r.phase = "gone"
    else if (!young) r.phase = "unknown"
  }
  // a sweep armed its next 60 s now, or (maybe) the old deadline still stands
  m.sweepAfter = due ? { lo: SWEEP_SECONDS, hi: SWEEP_SECONDS } : { lo: Math.min(lo, 0), hi: Math.max(hi, SWEEP_SECONDS) }
}

/** The clocks moved by `wall` seconds (a set is a move by its distance from the model's wall time). */
export const moveClock = (m: GenModel, wall: number): void => {
  m.clock += wall
  for (const r of m.runs) if (r.phase === "held") r.heldLoopHigh = Math.max(r.heldLoopHigh ?? m.loop, m.loop)
  const loop = m.wallOnly ? 0 : wall
  m.loop += loop
  m.loopHigh = Math.max(m.loopHigh, m.loop)
  m.sweepAfter = { lo: m.sweepAfter.lo - loop, hi: m.sweepAfter.hi - loop }
  for (const r of m.runs) r.clockMoved = true
}

/** A stop made now during a held run's model call would be seen only once loop time is back where its slice was armed. */
export const stopStranded = (m: Readonly<GenModel>, r: Readonly<ModelRun>): boolean => m.loop < (r.heldLoopHigh ?? m.loop)
