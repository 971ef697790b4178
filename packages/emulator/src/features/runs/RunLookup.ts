/**
 * Finding a run's status the way upstream does before any run route acts: its process memory —
 * a live run (runs/Runs), else a settled status (runs/SettledRuns) unless the hourly sweep
 * has dropped it — else, where the pin keeps a ledger, the durable row, hydrated back into memory.
 * A hydrated unsettled run whose owner process is gone becomes `interrupted` (persisted).
 */
import type { SqlClient } from "@effect/sql"
import { Effect, Exit } from "effect"
import { flatMapNow, mapNow } from "../../http/Immediate.js"
import type { RouteContext } from "../../http/Route.js"
import { decodeStatus, INTERRUPTED_ERROR, isTerminal, ledger } from "./RunLedger.js"
import type { RunRecord } from "./RunRecord.js"
import { decodeSettled, loadSettled, type SettledRun, sweepSettled } from "./SettledRuns.js"
import { runsIn, type RunsServices } from "./Runs.js"
import { PyFloat } from "../../python/index.js"

export type FoundRun =
  /** In live memory, or just hydrated from the ledger. */
  | { readonly _tag: "live"; readonly record: RunRecord }
  | { readonly _tag: "settled"; readonly run: SettledRun }
  | { readonly _tag: "absent" }

const ABSENT: FoundRun = { _tag: "absent" }

/** Where the run's status is, without decoding a settled one (GET answers its stored bytes). */
export const findRun = (ctx: RouteContext<RunsServices>, runId: string): Effect.Effect<FoundRun, never, SqlClient.SqlClient> => {
  const runs = runsIn(ctx)
  const swept = sweepRunsIfDue(ctx)
  const live = runs.status(runId)
  if (live !== undefined) {
    const found: FoundRun = { _tag: "live", record: live }
    return swept === undefined ? Exit.succeed(found) : Effect.as(swept, found)
  }
  // settled statuses are gone only once a sweep dropped them: the sweeps still deleting decide
  const settled = mapNow(loadSettled(ctx.storage, ctx.namespace, runId, runs.pendingSweeps), (run): FoundRun =>
    run === undefined ? ABSENT : { _tag: "settled", run })
  const found = swept === undefined ? settled : Effect.zipRight(swept, settled)
  if (!ctx.features.runsIdempotencyLedger) return found
  return flatMapNow(found, (f): Effect.Effect<FoundRun, never, SqlClient.SqlClient> =>
    f._tag === "absent" ? hydrate(ctx, runId) : Exit.succeed(f))
}

/**
 * The sweep, when a run route finds it due on the loop clock: memory at once, Storage's settled
 * statuses in the background (reads apply it until that is done).
 */
export const sweepRunsIfDue = (ctx: RouteContext<RunsServices>): Effect.Effect<void, never, SqlClient.SqlClient> | undefined => {
  const runs = runsIn(ctx)
  const sweep = runs.sweepIfDue(ctx.now(), ctx.loopNow())
  return sweep === undefined ? undefined : sweepSettled(ctx.namespace, sweep, (s) => runs.sweepDeleted(s))
}

/** The run's status as a record, wherever it is. */
export const lookupRun = (ctx: RouteContext<RunsServices>, runId: string): Effect.Effect<RunRecord | undefined, never, SqlClient.SqlClient> =>
  mapNow(findRun(ctx, runId), (f) =>
    f._tag === "live" ? f.record : f._tag === "settled" ? decodeSettled(f.run) : undefined)

const hydrate = (ctx: RouteContext, runId: string): Effect.Effect<FoundRun> =>
  ctx.storage.use((): FoundRun => {
    const runs = ledger(ctx.storage, ctx.namespace)
    const row = runs.findByRun(runId)
    if (row === undefined) return ABSENT
    const record: RunRecord = decodeStatus(row.status_json)
    if (!isTerminal(row.status) && row.owner !== ctx.gateway.owner) {
      const now = ctx.now()
      record["status"] = "interrupted"
      record["error"] = INTERRUPTED_ERROR
      record["last_event"] = "run.interrupted"
      record["updated_at"] = new PyFloat(now)
      runs.persistStatus(runId, record, now)
    }
    // upstream re-hydrates from the ledger on every access once its memory dropped the run
    return { _tag: "live", record }
  })
