/**
 * Every run status change goes through here: the in-memory status as upstream's
 * `_set_run_status`, and for keyed runs (0.21.0) the ledger row, written when the status changed,
 * when it is terminal, or when a persisted field (output, error, usage, ...) came with it —
 * progress-only updates (a new last_event) stay in memory, as upstream.
 */
import { Effect } from "effect"
import type { GatewayState } from "./GatewayState.js"
import { isTerminal, PERSISTED_FIELDS, persistStatus } from "./RunLedger.js"
import { type RunRecord, type RunStatus, setRunStatus } from "./RunRecord.js"
import { saveSettled } from "./SettledRuns.js"

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
    const due = persisted !== undefined &&
      (persisted !== status || isTerminal(status) || PERSISTED_FIELDS.some((f) => f in fields))
    if (due) gw.keyedRuns.set(runId, status)
    const ledger = due ? persistStatus(namespace, runId, record, now).pipe(Effect.asVoid, Effect.orDie) : Effect.void
    // a settled status leaves live memory for the settled-runs table (still "process memory")
    const settle = isTerminal(status)
      ? saveSettled(namespace, runId, record).pipe(Effect.zipRight(Effect.sync(() => settleInMemory(gw, runId, record))))
      : Effect.void
    return Effect.zipRight(ledger, settle)
  })

const settleInMemory = (gw: GatewayState, runId: string, record: RunRecord): void => {
  if (gw.runStatuses.get(runId) === record) gw.runStatuses.delete(runId)
  gw.keyedRuns.delete(runId)
}
