/**
 * Upstream's periodic sweep (every 60 s): SSE buffers nobody subscribed to expire 300 s after the
 * run was created; completed/failed/cancelled statuses expire 3600 s after their last update.
 * The emulator sweeps lazily on access with the namespace's clock, which is what the real
 * sweeper has done by the time a client looks, and makes clock jumps take effect at once.
 */
import type { GatewayState } from "./GatewayState.js"
import { SWEPT_STATUSES, recordUpdatedAt } from "./RunRecord.js"

export const RUN_STREAM_TTL_SECONDS = 300
export const RUN_STATUS_TTL_SECONDS = 3600

export const sweepRuns = (gw: GatewayState, now: number): void => {
  for (const [runId, stream] of gw.runStreams) {
    if (now - stream.createdAt > RUN_STREAM_TTL_SECONDS && !gw.streamSubscribers.has(runId)) {
      gw.runStreams.delete(runId)
    }
  }
  for (const [runId, record] of gw.runStatuses) {
    if (SWEPT_STATUSES.has(String(record["status"])) && now - recordUpdatedAt(record) > RUN_STATUS_TTL_SECONDS) {
      gw.runStatuses.delete(runId)
    }
  }
}
