/**
 * What a route handler sees and may do. A handler answers with an EmuResponse; an exception that
 * upstream lets escape (aiohttp then answers a bare 500) is the `HandlerCrash` failure.
 */
import type { SqlClient } from "@effect/sql"
import { type Context, Data, type Effect } from "effect"
import type { EmulatorConfig, EmulatorConfigShape } from "../config/EmulatorConfig.js"
import type { GatewayState, Gateways } from "../services/GatewayProcess.js"
import type { Agent } from "../services/Agent.js"
import type { EmuClock } from "../services/Clock.js"
import type { Faults } from "../services/Faults.js"
import type { Ids } from "../services/Ids.js"
import type { Journal } from "../services/Journal.js"
import type { Storage, StorageShape } from "../services/Storage.js"
import type { Features } from "../version/Pins.js"
import type { EmuRequest, EmuRequestHead, EmuResponse } from "./Exchange.js"
import type { RouteDef } from "./Router.js"
import type { Namespace } from "../namespace/Namespace.js"

export type AppServices = EmulatorConfig | EmuClock | Ids | Agent | Faults | Journal | Gateways | SqlClient.SqlClient | Storage | Namespace

export class HandlerCrash extends Data.TaggedError("HandlerCrash")<{ readonly reason: string }> {}

export interface RouteContext<R = AppServices> {
  readonly req: EmuRequestHead
  /**
   * The request with its body, read on first use: where upstream's handler awaits
   * `request.json()`, so the checks it makes before that answer without waiting for the body.
   */
  readonly readBody: Effect.Effect<EmuRequest>
  readonly params: Readonly<Record<string, string>>
  readonly namespace: string
  readonly gateway: GatewayState
  readonly features: Features
  readonly config: EmulatorConfigShape
  /** The durable state's connection (its lean, synchronous door). */
  readonly storage: StorageShape
  /** time.time() of this namespace's wall clock. */
  readonly now: () => number
  /** The namespace's loop (monotonic) clock: what asyncio timers and timed thread waits read (services/Clock.ts). */
  readonly loopNow: () => number
  /**
   * The services the request runs with, for a read that must not turn an answer that waits on
   * nothing into an Effect to run (http/Immediate.ts). `R` is what the table's handlers need:
   * the app's services, and a feature's own service (features/runs/Runs.ts) where it has one.
   */
  readonly services: Context.Context<R>
}

export type Handler<R = AppServices> = (ctx: RouteContext<R>) => Effect.Effect<EmuResponse, HandlerCrash, R>

/**
 * What a control-plane command sees: the request with its body (the plane reads the body before
 * it routes, so an oversize one is a 413 whatever the path), the path's params and the namespace.
 */
export interface AdminContext {
  readonly req: EmuRequest
  readonly params: Readonly<Record<string, string>>
  readonly namespace: string
}

/** A control-plane command: bad input is its own 400 answer, so it never fails. */
export type AdminHandler<R = AppServices> = (ctx: AdminContext) => Effect.Effect<EmuResponse, never, R>

/** An upstream route (`auth` "bearer" or "public"). */
export type ApiRoute<R = AppServices> = RouteDef<Handler<R>> & { readonly auth: "bearer" | "public" }
/** A control-plane command under /__admin (`auth` "admin"). */
export type AdminRoute<R = AppServices> = RouteDef<AdminHandler<R>> & { readonly auth: "admin" }

export type Route<R = AppServices> = ApiRoute<R> | AdminRoute<R>

export const isAdminRoute = <R>(route: Route<R>): route is AdminRoute<R> => route.auth === "admin"
export const isApiRoute = <R>(route: Route<R>): route is ApiRoute<R> => route.auth !== "admin"
