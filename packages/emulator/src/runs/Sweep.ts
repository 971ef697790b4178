/**
 * Upstream's periodic sweep (every 60 s): SSE buffers nobody subscribed to expire 300 s after the
 * run was created; completed/failed/cancelled statuses expire 3600 s after their last update.
 * The emulator applies expiry lazily with the namespace's clock: the run a request touches is
 * checked exactly (so a clock jump takes effect at once), and the whole table is swept at most
 * once per 60 s of emulated time to bound memory, which keeps each request O(1).
 */
import type { GatewayState } from "./GatewayState.js"
import { SWEPT_STATUSES, recordUpdatedAt } from "./RunRecord.js"

export const RUN_STREAM_TTL_SECONDS = 300
export const RUN_STATUS_TTL_SECONDS = 3600
export const SWEEP_INTERVAL_SECONDS = 60

/** Drops this run's status and buffer if upstream's sweeper would have dropped them by `now`. */
export const expireRun = (gw: GatewayState, runId: string, now: number): void => {
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

/** What every run route does first; true when the periodic sweep is due. */
export const expireForAccess = (gw: GatewayState, runId: string, now: number): boolean => {
  expireRun(gw, runId, now)
  return sweepRuns(gw, now)
}
