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
 * The emulator keeps the cadence on its namespace clock: the sweep is due 60 s after the last one
 * (the first 60 s after the process started), runs when a run route finds it due, before that
 * route reads anything, and every expiry check compares against the last sweep's time, never `now`.
 */
import type { GatewayState } from "./GatewayState.js"
import { SWEPT_STATUSES, recordUpdatedAt } from "./RunRecord.js"

export const RUN_STREAM_TTL_SECONDS = 300
export const RUN_STATUS_TTL_SECONDS = 3600
export const SWEEP_INTERVAL_SECONDS = 60

/** Drops this run's status and buffer if a sweep at `now` drops them. */
const expireRun = (gw: GatewayState, runId: string, now: number): void => {
  const stream = gw.runStreams.get(runId)
  if (stream !== undefined && now - stream.createdAt > RUN_STREAM_TTL_SECONDS && !gw.streamSubscribers.has(runId)) {
    gw.runStreams.delete(runId)
  }
  const record = gw.runStatuses.get(runId)
  if (record !== undefined && SWEPT_STATUSES.has(String(record["status"])) && now - recordUpdatedAt(record) > RUN_STATUS_TTL_SECONDS) {
    gw.runStatuses.delete(runId)
  }
}

/**
 * The full sweep of live memory, at most once per interval (or after the clock went backwards);
 * true when it ran, so the caller sweeps the settled statuses in Storage too.
 */
export const sweepRuns = (gw: GatewayState, now: number): boolean => {
  if (now - gw.lastSweepAt < SWEEP_INTERVAL_SECONDS && now >= gw.lastSweepAt) return false
  gw.lastSweepAt = now
  for (const runId of gw.runStreams.keys()) expireRun(gw, runId, now)
  for (const runId of gw.runStatuses.keys()) expireRun(gw, runId, now)
  return true
}

/** What every run route does first: the periodic sweep, when due; true when it ran. */
export const sweepIfDue = (gw: GatewayState, now: number): boolean => sweepRuns(gw, now)
