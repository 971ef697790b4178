/**
 * Every run status change goes through here: the in-memory status as upstream's
 * `_set_run_status`, and for keyed runs (0.21.0) the ledger row, written when the status changed,
 * when it is terminal, or when a persisted field (output, error, usage, ...) came with it —
 * progress-only updates (a new last_event) stay in memory, as upstream.
 */
import { Effect } from "effect"
import type { GatewayState } from "./GatewayState.js"
import { Storage } from "../services/Storage.js"
import { isTerminal, ledger, PERSISTED_FIELDS } from "./RunLedger.js"
import { type RunRecord, type RunStatus, setRunStatus } from "./RunRecord.js"
import { saveSettledNow } from "./SettledRuns.js"

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
    const terminal = isTerminal(status)
    if (!due && !terminal) return Effect.void
    return Effect.flatMap(Storage, (storage) =>
      // one commit for the ledger row and the settled status
      storage.transaction(() => {
        if (due) ledger(storage, namespace).persistStatus(runId, record, now)
        // a settled status leaves live memory for the settled-runs table (still "process memory")
        if (terminal) {
          saveSettledNow(storage, namespace, runId, record)
          settleInMemory(gw, runId, record)
        }
      }))
  })

const settleInMemory = (gw: GatewayState, runId: string, record: RunRecord): void => {
  if (gw.runStatuses.get(runId) === record) gw.runStatuses.delete(runId)
  gw.keyedRuns.delete(runId)
}
