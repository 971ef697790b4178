/**
 * Finding a run's status the way upstream does before any run route acts: the in-memory status
 * (after the lazy sweep), else — where the pin keeps a ledger — the durable row, hydrated back into
 * memory. A hydrated unsettled run whose owner process is gone becomes `interrupted` (persisted).
 */
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { PyFloat } from "../http/PyJson.js"
import type { RouteContext } from "../http/Route.js"
import { decodeStatus, findByRun, INTERRUPTED_ERROR, isTerminal, persistStatus } from "./RunLedger.js"
import type { RunRecord } from "./RunRecord.js"
import { expireForAccess } from "./Sweep.js"

export const lookupRun = (ctx: RouteContext, runId: string): Effect.Effect<RunRecord | undefined, never, SqlClient.SqlClient> => {
  const gw = ctx.gateway
  expireForAccess(gw, runId, ctx.now())
  const cached = gw.runStatuses.get(runId)
  // the hot path (a status in memory) stays synchronous
  if (cached !== undefined || !ctx.features.runsIdempotencyLedger) return Effect.succeed(cached)
  return hydrate(ctx, runId)
}

const hydrate = (ctx: RouteContext, runId: string) =>
  Effect.gen(function*() {
    const gw = ctx.gateway
    const row = yield* findByRun(ctx.namespace, runId)
    if (row === undefined) return undefined
    const record: RunRecord = decodeStatus(row.status_json)
    if (!isTerminal(row.status) && row.owner !== gw.owner) {
      const now = ctx.now()
      record["status"] = "interrupted"
      record["error"] = INTERRUPTED_ERROR
      record["last_event"] = "run.interrupted"
      record["updated_at"] = new PyFloat(now)
      yield* persistStatus(ctx.namespace, runId, record, now)
    }
    gw.runStatuses.set(runId, record)
    return record
  }).pipe(Effect.orDie)
