/**
 * `Runs`, the one owner of run state: each namespace's emulated process has its ProcessRuns,
 * made with the process and dropped with it (a restart's new process starts with no runs).
 * Route handlers read it from the request's services (`runsIn`), which keeps an answer that waits
 * on nothing an Exit (http/Immediate.ts).
 */
import { Context, Effect, Layer } from "effect"
import type { AppServices, RouteContext } from "../../http/Route.js"
import { Gateways, type GatewaysShape } from "../../services/GatewayProcess.js"
import { ProcessRuns } from "./ProcessRuns.js"

export interface RunsShape {
  /** The runs of the namespace's process as it runs now. */
  readonly of: (namespace: string) => ProcessRuns
}

export class Runs extends Context.Tag("hermetic/Runs")<Runs, RunsShape>() {}

/** What a route that reaches run state needs besides the app's services. */
export type RunsServices = AppServices | Runs

export const makeRuns = (gateways: GatewaysShape): RunsShape => {
  const byNamespace = new Map<string, ProcessRuns>()
  return {
    of: (namespace) => {
      const process = gateways.get(namespace)
      const runs = byNamespace.get(namespace)
      if (runs !== undefined && runs.process === process) return runs
      const fresh = new ProcessRuns(process)
      byNamespace.set(namespace, fresh)
      return fresh
    }
  }
}

/** The default `Runs`, on the context's Gateways. */
export const RunsLive: Layer.Layer<Runs, never, Gateways> = Layer.effect(Runs, Effect.map(Gateways, makeRuns))

/** The runs of the request's namespace. */
export const runsIn = (ctx: RouteContext<RunsServices>): ProcessRuns => Context.get(ctx.services, Runs).of(ctx.namespace)

/** The run statuses readiness counts as active API work (`_readiness_work_counts`). */
const ACTIVE_RUN_STATUSES = new Set(["queued", "running", "waiting_for_approval"])

/** Runs in flight, as /health/detailed and a drain's active_agents count them. */
export const activeApiRuns = (runs: ProcessRuns): number => runs.countStatuses(ACTIVE_RUN_STATUSES)
