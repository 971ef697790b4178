/**
 * Every run status change goes through here: the in-memory status as upstream's
 * `_set_run_status`, and for keyed runs (0.21.0) the ledger row, written when the status changed,
 * when it is terminal, or when a persisted field (output, error, usage, ...) came with it —
 * progress-only updates (a new last_event) stay in memory, as upstream.
 */
import { Effect } from "effect"
import type { GatewayState } from "./GatewayState.js"
import { isTerminal, PERSISTED_FIELDS, persistStatus } from "./RunLedger.js"
import { type RunStatus, setRunStatus } from "./RunRecord.js"

export const writeRunStatus = (
  gw: GatewayState,
  namespace: string,
  runId: string,
  status: RunStatus,
  now: number,
  fields: Record<string, unknown> = {}
) =>
  Effect.suspend(() => {
    const record = setRunStatus(gw.runStatuses, runId, status, now, fields)
    const persisted = gw.keyedRuns.get(runId)
    if (persisted === undefined) return Effect.void
    const due = persisted !== status || isTerminal(status) || PERSISTED_FIELDS.some((f) => f in fields)
    if (!due) return Effect.void
    gw.keyedRuns.set(runId, status)
    return persistStatus(namespace, runId, record, now).pipe(Effect.asVoid, Effect.orDie)
  })
