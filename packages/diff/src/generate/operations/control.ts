/**
 * Time and process: the clock moved forward and back (across the 1 h run-status, 300 s buffer and
 * idempotency, 24 h ledger boundaries), set to a fixed past or future instant, frozen and let run
 * on the wall-clock profile; restarts and crashes with held and keyed runs; draining. The model
 * (GenModel.ts) keeps wall and loop time apart as the runner's libfaketime does, and keeps every
 * step deterministic: a move that could fire a held model call's timeouts or a live cron job is
 * not generated, and a run a sweep may or may not have dropped is never referred to again.
 */
import * as fc from "fast-check"
import { FUTURE_INSTANT, FUTURE_OFFSET, type GenModel, moveClock, PAST_INSTANT, PAST_OFFSET, RUN_STATUS_TTL } from "../GenModel.js"
import { command, type OperationCommands, quietCommand } from "./Operation.js"

const held = (m: Readonly<GenModel>) => m.runs.some((r) => r.phase === "held" || r.phase === "stopping")
const liveJobs = (m: Readonly<GenModel>) => m.jobs.some((j) => !j.deleted)

/**
 * A forward move is safe with no held reply (its call's timeouts would fire) and no live cron job
 * (it could fire: a turn nobody scripted). A backward move or a set to the past fires nothing.
 */
export const forwardSafe = (m: Readonly<GenModel>) => !held(m) && !liveJobs(m)

// each lands ages clear of the 300 s and 3600 s boundaries by more than REAL_DRIFT
const FORWARD = [60, 400, RUN_STATUS_TTL - 90, RUN_STATUS_TTL + 90, 86_400 + 90] as const
const BACKWARD = [-120, -600] as const

/** A real gateway restart costs seconds (a new Python process): one per scenario keeps a 30-command scenario well under a minute. */
const MAX_RESTARTS = 1

export const controlOperation: OperationCommands = {
  id: "control",
  requiresRoutes: [],
  commands: () => [
    fc.constantFrom(...FORWARD).map((seconds) =>
      quietCommand(`clockAdvance(${seconds})`, forwardSafe, (m, b) => {
        b.add({ clock: { advance: seconds } })
        moveClock(m, seconds)
      })
    ),
    fc.constantFrom(...BACKWARD).map((seconds) =>
      quietCommand(`clockAdvance(${seconds})`, () => true, (m, b) => {
        b.add({ clock: { advance: seconds } })
        moveClock(m, seconds)
      })
    ),
    fc.constant(
      quietCommand("clockSetPast", () => true, (m, b) => {
        b.add({ clock: { set: PAST_INSTANT }, note: "a fixed past instant: loop time goes back with it" })
        moveClock(m, PAST_OFFSET - m.clock)
      })
    ),
    fc.constant(
      quietCommand("clockSetFuture", forwardSafe, (m, b) => {
        b.add({ clock: { set: FUTURE_INSTANT }, note: "a fixed future instant: every loop deadline is passed" })
        moveClock(m, FUTURE_OFFSET - m.clock)
      })
    ),
    fc.boolean().map((on) =>
      quietCommand(on ? "clockFreeze" : "clockUnfreeze", (m) => m.wallOnly && m.frozen !== on, (m, b) => {
        b.add({ clock: { freeze: on } })
        m.frozen = on
      })
    ),
    fc.boolean().map((crash) =>
      // a graceful restart waits for held runs to finish; a crash does not
      command(crash ? "crash" : "restart", (m) => m.restarts < MAX_RESTARTS && (crash || !held(m)), (m, b) => {
        b.add({ restart: crash ? { crash: true } : {} })
        m.restarts += 1
        m.loopHigh = m.loop
        m.warmth = "cold"
        // a new process: its sweeper sleeps 60 s from now
        m.sweepAfter = { lo: 0, hi: 60 }
        // runs live in the gateway's memory (held ones too); with a ledger, keyed runs are kept in storage
        for (const r of m.runs) {
          if (r.phase === "unknown") continue
          if (!(m.features.runsIdempotencyLedger && [...m.keys.values()].some((k) => k.alias === r.alias))) r.phase = "gone"
        }
        // the idempotency cache is process memory too
        m.keyedChats.length = 0
      })
    ),
    // Hermes polls the drain marker once a second of loop time: after a backward move it would not
    // look again until loop time is back where it was, and the step would wait in vain
    fc.constant(
      command("drain", (m) => m.loop >= m.loopHigh, (_m, b) => {
        b.add(
          { drain: true },
          { request: { method: "POST", path: "/v1/runs", body: { input: "while draining" } }, note: "new agent work is refused while draining" },
          { request: { method: "GET", path: "/health" } },
          { drain: false }
        )
      })
    )
  ]
}
