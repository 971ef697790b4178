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
 * The emulator keeps the cadence on its namespace clock (`Runs.sweepIfDue`): the sweep is due 60 s after the last one
 * (the first 60 s after the process started), runs when a run route finds it due, before that
 * route reads anything, and every expiry check compares against the last sweep's time, never `now`.
 */
import { type RunRecord, SWEPT_STATUSES, recordUpdatedAt } from "./RunRecord.js"

export const RUN_STREAM_TTL_SECONDS = 300
export const RUN_STATUS_TTL_SECONDS = 3600
export const SWEEP_INTERVAL_SECONDS = 60

/** A sweep is due 60 s after the last one, or at once after the clock went backwards. */
export const sweepDue = (lastSweepAt: number, now: number): boolean =>
  now - lastSweepAt >= SWEEP_INTERVAL_SECONDS || now < lastSweepAt

/** An SSE buffer nobody subscribed to goes 300 s after its run was created. */
export const streamExpired = (createdAt: number, now: number): boolean => now - createdAt > RUN_STREAM_TTL_SECONDS

/** A completed/failed/cancelled status goes 3600 s after its last update. */
export const statusExpired = (record: RunRecord, now: number): boolean =>
  SWEPT_STATUSES.has(String(record["status"])) && now - recordUpdatedAt(record) > RUN_STATUS_TTL_SECONDS
