/** GET /__admin/state: what the namespace holds now (script, runs, drain, clock) and the rows written so far. */
import { Effect } from "effect"
import { EmulatorConfig } from "../../config/EmulatorConfig.js"
import { jsonResponse } from "../../http/Exchange.js"
import type { AdminContext, AdminHandler } from "../../http/Route.js"
import { Agent } from "../../services/Agent.js"
import { EmuClock } from "../../services/Clock.js"
import { Gateways } from "../../services/GatewayProcess.js"
import { Storage } from "../../services/Storage.js"
import { Runs, type RunsServices } from "../runs/Runs.js"
import { countSettled } from "../runs/SettledRuns.js"

const storageWrites = Effect.flatMap(Storage, (storage) =>
  storage.use(() => (storage.statement("SELECT total_changes() AS n").get() as { readonly n: number }).n))

export const namespaceState: AdminHandler<RunsServices> = (ctx) => Effect.gen(() => stateOf(ctx))

function* stateOf(ctx: AdminContext) {
  const ns = ctx.namespace
  const gw = (yield* Gateways).get(ns)
  const runs = (yield* Runs).of(ns)
  return jsonResponse({
    namespace: ns,
    hermes_version: (yield* EmulatorConfig).pin,
    pending_turns: (yield* (yield* Agent).player(ns).view).pendingTurns,
    runs: runs.statusCount + (yield* countSettled(ns)),
    live_runs: runs.liveCount,
    draining: gw.draining,
    now: (yield* EmuClock).now(ns),
    // rows written to durable state since start, every namespace (SQLite's total_changes):
    // a probe that must change nothing checks this did not move
    writes: yield* storageWrites
  })
}
