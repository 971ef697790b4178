import { PyFloat } from "../../python/index.js"
/**
 * The pollable run status, kept as Hermes keeps it: a dict whose key order is the order of first
 * insertion (object, run_id, status, updated_at, created_at, session_id, model, then whatever
 * later updates add: last_event, output, usage, error, ...). GET /v1/runs/{id} returns it verbatim.
 */

export type RunStatus =
  | "queued"
  | "running"
  | "waiting_for_approval"
  | "stopping"
  | "completed"
  | "failed"
  | "cancelled"
  | "interrupted"

export const TERMINAL_STATUSES: ReadonlySet<RunStatus> = new Set(["completed", "failed", "cancelled", "interrupted"])

/** The statuses upstream's 1 h sweep drops (0.19.0 and 0.21.0 alike: not "interrupted"). */
export const SWEPT_STATUSES: ReadonlySet<string> = new Set(["completed", "failed", "cancelled"])

export type RunRecord = Record<string, unknown>

/**
 * Hermes' `_set_run_status(run_id, status, **fields)`: refresh object/run_id/status/updated_at,
 * set created_at once, then apply the extra fields in the order given.
 */
export const setRunStatus = (
  statuses: Map<string, RunRecord>,
  runId: string,
  status: RunStatus,
  now: number,
  fields: Record<string, unknown> = {}
): RunRecord => {
  const current: RunRecord = statuses.get(runId) ?? {}
  current["object"] = "hermes.run"
  current["run_id"] = runId
  current["status"] = status
  current["updated_at"] = new PyFloat(now)
  if (!("created_at" in current)) current["created_at"] = fields["created_at"] ?? new PyFloat(now)
  // the other fields in the order given (a loop: an object rest copy cost more than the update)
  for (const key in fields) if (key !== "created_at") current[key] = fields[key]
  statuses.set(runId, current)
  return current
}

export const recordUpdatedAt = (record: RunRecord): number => {
  const v = record["updated_at"]
  return v instanceof PyFloat ? v.value : typeof v === "number" ? v : 0
}
