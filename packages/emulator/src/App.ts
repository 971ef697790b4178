/**
 * The emulator as one function from request to response: the admin plane under /__admin, then
 * Hermes' middleware chain and route table for the pinned release. Both the socket server and the
 * in-process fetch handler call this.
 */
import { Effect } from "effect"
import { handleAdmin, isAdminPath } from "./admin/AdminRoutes.js"
import { EmulatorConfig } from "./config/EmulatorConfig.js"
import { aiohttpMethodNotAllowed, aiohttpNotFound, internalServerError, plainErrorResponse } from "./http/Envelopes.js"
import type { EmuRequest, EmuResponse } from "./http/Exchange.js"
import { jsonResponse } from "./http/Exchange.js"
import { addCorsHeaders, addSecurityHeaders, bodyLimitShortCircuit, corsShortCircuit } from "./http/Middleware.js"
import type { AppServices, Route, RouteContext } from "./http/Route.js"
import { Router } from "./http/Router.js"
import { Gateways } from "./runs/GatewayState.js"
import { routesFor } from "./routes/RouteTable.js"
import { EmuClock } from "./services/Clock.js"
import { type FaultRule, Faults } from "./services/Faults.js"
import { Journal } from "./services/Journal.js"
import { features as featuresOf } from "./version/Pins.js"

export const NAMESPACE_HEADER = "x-hermetic-namespace"

export const namespaceOf = (req: EmuRequest): string => {
  const ns = req.headers[NAMESPACE_HEADER]?.trim()
  return ns === undefined || ns === "" ? "default" : ns
}

export type AppHandler = (req: EmuRequest) => Effect.Effect<EmuResponse, never, AppServices>

const faultResponse = (rule: FaultRule): EmuResponse | undefined => {
  if (rule.drop === true) return { status: 0, headers: [], body: { _tag: "drop" } }
  if (rule.status === undefined) return undefined
  const body = rule.body ?? {
    error: { message: "Injected fault", type: "server_error", param: null, code: "hermetic_fault" }
  }
  return jsonResponse(body, rule.status, Object.entries(rule.headers ?? {}))
}

export const makeApp = Effect.gen(function*() {
  const config = yield* EmulatorConfig
  const clock = yield* EmuClock
  const gateways = yield* Gateways
  const faults = yield* Faults
  const journal = yield* Journal
  const features = featuresOf(config.pin)
  const router = new Router<Route["handler"]>(routesFor(features))

  const dispatch = (req: EmuRequest, namespace: string): Effect.Effect<[EmuResponse, string | null], never, AppServices> =>
    Effect.gen(function*() {
      const match = router.match(req.method, req.path)
      const routeId = match._tag === "found" ? match.route.id : null
      const fault = faults.take(namespace, { route: routeId, method: req.method, path: req.path })
      if (fault?.latencyMs !== undefined) yield* Effect.sleep(fault.latencyMs)
      const injected = fault === undefined ? undefined : faultResponse(fault)
      if (injected !== undefined) return [injected, routeId] as [EmuResponse, string | null]

      // profile_prefix_middleware
      const profile = match._tag === "found" ? match.params["profile"] : undefined
      if (
        profile !== undefined &&
        features.profilePrefixWithoutMultiplex === "own-profile-only" &&
        profile.trim() !== "" &&
        profile.trim() !== config.profileName
      ) {
        return [plainErrorResponse(404, "Unknown or unconfigured profile"), routeId] as [EmuResponse, string | null]
      }
      // cors_middleware
      const cors = corsShortCircuit(config, req)
      if (cors !== undefined) return [cors, routeId] as [EmuResponse, string | null]
      // body_limit_middleware
      const limited = bodyLimitShortCircuit(req)
      if (limited !== undefined) return [limited, routeId] as [EmuResponse, string | null]
      // aiohttp's router exceptions pass every middleware untouched
      if (match._tag === "notFound") return [aiohttpNotFound(), routeId] as [EmuResponse, string | null]
      if (match._tag === "methodNotAllowed") {
        return [aiohttpMethodNotAllowed(match.allow), routeId] as [EmuResponse, string | null]
      }
      const ctx: RouteContext = {
        req,
        params: match.params,
        namespace,
        gateway: gateways.get(namespace),
        features,
        config,
        now: () => clock.now(namespace)
      }
      const response = yield* match.route.handler(ctx).pipe(
        // security_headers_middleware, then cors_middleware adds its headers
        Effect.map((res) => addCorsHeaders(config, req, addSecurityHeaders(res))),
        Effect.catchTag("HandlerCrash", () => Effect.succeed(internalServerError()))
      )
      const disconnect = fault?.disconnectAfterFrames
      if (disconnect !== undefined && response.body._tag === "sse") {
        return [{ ...response, body: { ...response.body, disconnectAfter: disconnect } }, routeId] as [
          EmuResponse,
          string | null
        ]
      }
      return [response, routeId] as [EmuResponse, string | null]
    })

  const handle: AppHandler = (req) =>
    Effect.gen(function*() {
      const started = performance.now()
      const namespace = namespaceOf(req)
      const [response, routeId] = isAdminPath(req.path)
        ? [yield* handleAdmin(req, namespace), "admin"]
        : yield* dispatch(req, namespace)
      journal.record({
        at: clock.now(namespace),
        namespace,
        method: req.method,
        path: req.path,
        route: routeId,
        status: response.status,
        durationMs: performance.now() - started,
        fault: null
      })
      return response
    })

  return { handle, router, features, config }
})

