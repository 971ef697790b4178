import { pyDumps, PyFloat } from "../../python/index.js"
/**
 * Structured run events as /v1/runs/{id}/events sends them: unnamed `data:` frames whose JSON
 * carries the event name first, then run_id and a float timestamp.
 */

export type RunEvent = Record<string, unknown>

export const runEvent = (event: string, runId: string, now: number, fields: Record<string, unknown> = {}): RunEvent => ({
  event,
  run_id: runId,
  timestamp: new PyFloat(now),
  ...fields
})

export const dataFrame = (event: RunEvent): string => `data: ${pyDumps(event)}\n\n`
export const STREAM_CLOSED_FRAME = ": stream closed\n\n"
