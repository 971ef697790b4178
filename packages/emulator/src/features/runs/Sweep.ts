/**
 * Upstream's periodic sweep (0.19.0 `_sweep_orphaned_runs`): an asyncio task sleeps 60 s of the
 * event loop's (monotonic) clock, then drops SSE buffers nobody subscribed to 300 s after the run
 * was created and completed/failed/cancelled statuses 3600 s after their last update, judged by
 * wall time at the sweep. Nothing expires between sweeps. Under libfaketime both clocks jump
 * together, so a forward jump makes the sweep due and it runs before the next request is handled
 * (observed live: 404 at once after +3700 s); but a status that crosses the hour by a small jump
 * soon after a sweep stays readable until the next one (observed: 200 for 12 s and more after
 * +3590 s then +15 s). See docs/pins/time.md.
 *
 * The emulator keeps the cadence on the namespace's loop clock (services/Clock.ts, `Runs.sweepIfDue`):
 * the sweep is due 60 s of loop time after the last one (the first 60 s after the process
 * started), runs when a run route finds it due, before that route reads anything, and judges ages
 * by wall time at that moment. A set to a past instant moves the loop clock back too, so the sweep
 * is not due again until loop time is back past its deadline — as upstream's asyncio timer, armed
 * before the set, stays where it was.
 */
import { type RunRecord, SWEPT_STATUSES, recordUpdatedAt } from "./RunRecord.js"

export const RUN_STREAM_TTL_SECONDS = 300
export const RUN_STATUS_TTL_SECONDS = 3600
export const SWEEP_INTERVAL_SECONDS = 60

/** The sweep's timer ends once loop time reaches its deadline (60 s of loop time after it was armed). */
export const sweepDue = (deadlineLoop: number, loopNow: number): boolean => loopNow >= deadlineLoop

/** One sweep: its number in this process (1, 2, …) and the wall time it judged ages by. */
export interface SweepRun {
  readonly seq: number
  readonly wall: number
}

/** An SSE buffer nobody subscribed to goes 300 s after its run was created. */
export const streamExpired = (createdAt: number, now: number): boolean => now - createdAt > RUN_STREAM_TTL_SECONDS

/** A completed/failed/cancelled status goes 3600 s after its last update. */
export const statusExpired = (record: RunRecord, now: number): boolean =>
  SWEPT_STATUSES.has(String(record["status"])) && now - recordUpdatedAt(record) > RUN_STATUS_TTL_SECONDS
