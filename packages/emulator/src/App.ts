/**
 * The emulator as one function from request to response, dispatched by the one route table
 * (RouteTable.ts): a path under /__admin passes the control plane's guard and reaches its command;
 * any other passes Hermes' middleware chain to the pinned release's route. Both the socket server
 * and the in-process fetch handler call this.
 */
import { Effect, Exit } from "effect"
import { ADMIN_PREFIX, isAdminPath } from "@hermetic/script"
import { EmulatorConfig } from "./config/EmulatorConfig.js"
import { aiohttpMethodNotAllowed, aiohttpNotFound, internalServerError, plainErrorResponse } from "./http/Envelopes.js"
import { bearerGate } from "./http/Auth.js"
import type { BodyReader, EmuRequest, EmuRequestHead, EmuResponse } from "./http/Exchange.js"
import { withRequestBody } from "./http/Exchange.js"
import { addCorsHeaders, addSecurityHeaders, bodyLimitShortCircuit, corsShortCircuit } from "./http/Middleware.js"
import { MAX_REQUEST_BYTES } from "./http/RequestBody.js"
import { adminError, adminGate } from "./http/AdminGate.js"
import { type AdminHandler, type Handler, HandlerCrash, isAdminRoute, isApiRoute, type RouteContext } from "./http/Route.js"
import type { EmulatorServices } from "./EmulatorServices.js"
import { type RouteMatch, Router } from "./http/Router.js"
import { Gateways } from "./services/GatewayProcess.js"
import { routeTable } from "./RouteTable.js"
import { EmuClock } from "./services/Clock.js"
import { type FaultRule, Faults } from "./services/Faults.js"
import { faultCut, faultLabel, faultResponse } from "./services/FaultAnswer.js"
import { Journal } from "./services/Journal.js"
import { Storage } from "./services/Storage.js"
import { crashLine, storageFailureLine, storageFailureOf } from "./services/StorageFailure.js"
import { flatMapNow, isDone, mapNow } from "./http/Immediate.js"
import { requestJournal } from "./journal/RequestJournal.js"
import { features as featuresOf } from "./version/Pins.js"
import { sweepRunsIfDue } from "./features/runs/RunLookup.js"

export const NAMESPACE_HEADER = "x-hermetic-namespace"

export const namespaceOf = (req: EmuRequestHead): string => {
  const ns = req.headers[NAMESPACE_HEADER]?.trim()
  return ns === undefined || ns === "" ? "default" : ns
}

/** A control plane request as a stderr line names it: its command, not the names it carries (a hold's). */
const adminRoute = (req: EmuRequestHead): string => `${req.method} ${req.path.split("/").slice(0, 3).join("/")}`

export type AppHandler = (req: EmuRequest) => Effect.Effect<EmuResponse, never, EmulatorServices>
/** The app as a socket calls it: the body is read only once no middleware has answered. */
export type StreamingAppHandler = (head: EmuRequestHead, body: BodyReader) => Effect.Effect<EmuResponse, never, EmulatorServices>

/** A body already in memory, held to the same limit as one read from a socket. */
export const bodyInMemory = (bytes: Uint8Array): BodyReader =>
  Effect.succeed(bytes.byteLength > MAX_REQUEST_BYTES ? { bytes: new Uint8Array(0), exceeded: true } : { bytes, exceeded: false })

const withBody = (head: EmuRequestHead, body: BodyReader): Effect.Effect<EmuRequest> =>
  mapNow(body, (read) => withRequestBody(head, read.bytes, read.exceeded))

export const makeApp = Effect.gen(function*() {
  const config = yield* EmulatorConfig
  const clock = yield* EmuClock
  const gateways = yield* Gateways
  const faults = yield* Faults
  const journal = yield* Journal
  const storage = yield* Storage
  const services = yield* Effect.context<EmulatorServices>()
  const features = featuresOf(config.pin)
  const table = routeTable(features)
  const router = new Router<Handler<EmulatorServices>>(table.filter(isApiRoute))
  // the control plane is ours, not upstream's: matched on the raw path, never under /p/{profile}
  const adminRouter = new Router<AdminHandler<EmulatorServices>>(table.filter(isAdminRoute), { profileMount: false, decodeSegments: false })

  type Answer = readonly [EmuResponse, string | null]
  const answer = (response: EmuResponse, routeId: string | null): Effect.Effect<Answer> =>
    Effect.succeed([response, routeId] as const)

  /**
   * A defect (a failed statement, a bug) answered as aiohttp answers an escaped exception, with
   * one stderr line saying what failed; the journal then records the 500 and the operation.
   * `request` names the route, never the path itself (a path may carry a secret).
   */
  const crashed = (request: string, routeId: string | null) => (defect: unknown): Effect.Effect<Answer> =>
    Effect.sync(() => {
      const failure = storageFailureOf(defect)
      process.stderr.write(failure === undefined ? crashLine(defect, request) : storageFailureLine(failure, storage.location, request))
      return [internalServerError(), routeId] as const
    })

  /** Hermes' middleware chain around the matched handler; plain code until the handler runs. */
  const afterFault = (
    req: EmuRequestHead,
    body: BodyReader,
    namespace: string,
    match: RouteMatch<Handler<EmulatorServices>>,
    fault: FaultRule | undefined
  ) => {
    const routeId = match._tag === "found" ? match.route.id : null
    const injected = fault === undefined ? undefined : faultResponse(fault)
    if (injected !== undefined) return answer(injected, routeId)
    // profile_prefix_middleware
    const profile = match._tag === "found" ? match.params["profile"] : undefined
    if (
      profile !== undefined &&
      features.profilePrefixWithoutMultiplex === "own-profile-only" &&
      profile.trim() !== "" &&
      profile.trim() !== config.profileName
    ) {
      return answer(plainErrorResponse(404, "Unknown or unconfigured profile"), routeId)
    }
    // cors_middleware
    const cors = corsShortCircuit(config, req)
    if (cors !== undefined) return answer(cors, routeId)
    // body_limit_middleware: inside cors_middleware, which adds its headers to the 413 / 400
    const limited = bodyLimitShortCircuit(req)
    if (limited !== undefined) return answer(addCorsHeaders(config, req, limited), routeId)
    // aiohttp's router exceptions pass every middleware untouched
    if (match._tag === "notFound") return answer(aiohttpNotFound(), routeId)
    if (match._tag === "methodNotAllowed") return answer(aiohttpMethodNotAllowed(match.allow), routeId)
    const ctx: RouteContext<EmulatorServices> = {
      req,
      readBody: withBody(req, body),
      params: match.params,
      namespace,
      gateway: gateways.get(namespace),
      features,
      config,
      storage,
      now: () => clock.now(namespace),
      loopNow: () => clock.loop(namespace),
      services
    }
    // the bearer gate answers like a handler would (security and CORS headers included)
    const gate = match.route.auth === "bearer" ? bearerGate(config, features, req) : undefined
    const answered: Effect.Effect<EmuResponse, HandlerCrash, EmulatorServices> =
      gate === undefined || gate._tag === "allowed"
        ? match.route.handler(ctx)
        : gate._tag === "denied"
        ? Effect.succeed(gate.response)
        : Effect.fail(new HandlerCrash({ reason: gate.reason }))
    // any request wakes upstream's event loop: a sweep due on the loop clock runs before its handler
    const swept = sweepRunsIfDue(ctx)
    const handled = swept === undefined ? answered : Effect.zipRight(swept, answered)
    // security_headers_middleware, then cors_middleware adds its headers; an armed disconnect fault then cuts a stream
    const finish = (res: EmuResponse): Answer => [faultCut(fault, addCorsHeaders(config, req, addSecurityHeaders(res))), routeId]
    // an answer ready at once stays an Exit: no fiber runs for it (http/Immediate.ts)
    return isDone(handled)
      ? Exit.succeed(finish(handled.value))
      : handled.pipe(
        Effect.map(finish),
        Effect.catchTag("HandlerCrash", () => answer(internalServerError(), routeId)),
        Effect.catchAllDefect(crashed(`${match.route.method} ${match.route.path}`, routeId))
      )
  }

  /**
   * A control-plane request: the guard, then the body read whatever the path (an oversize one is
   * a 413), then the command the table matches (no command, or another method: a 404). No fault,
   * middleware or sweep applies: none of it is upstream's.
   */
  const adminAnswer = (req: EmuRequestHead, body: BodyReader, namespace: string): Effect.Effect<EmuResponse, never, EmulatorServices> => {
    const refused = adminGate(config, req)
    if (refused !== undefined) return Exit.succeed(refused)
    return flatMapNow(body, (read): Effect.Effect<EmuResponse, never, EmulatorServices> => {
      if (read.exceeded) return Exit.succeed(adminError(413, "control plane request body too large"))
      const match = adminRouter.match(req.method, req.path)
      if (match._tag !== "found") return Exit.succeed(adminError(404, `unknown admin route: ${req.method} ${req.path.slice(ADMIN_PREFIX.length)}`))
      return match.route.handler({ req: withRequestBody(req, read.bytes), params: match.params, namespace })
    })
  }

  const dispatch = (
    req: EmuRequestHead,
    body: BodyReader,
    namespace: string
  ): Effect.Effect<readonly [Answer, string | null], never, EmulatorServices> => {
    const match = router.match(req.method, req.path)
    const fault = faults.take(namespace, {
      route: match._tag === "found" ? match.route.id : null,
      method: req.method,
      path: req.path
    })
    const answered = fault?.latencyMs === undefined
      ? afterFault(req, body, namespace, match, fault)
      : Effect.zipRight(Effect.sleep(fault.latencyMs), afterFault(req, body, namespace, match, fault))
    return mapNow(answered, (a) => [a, faultLabel(fault)] as const)
  }

  const journaled = requestJournal(journal, clock)
  const serve: StreamingAppHandler = (req, body) => {
    const namespace = namespaceOf(req)
    const admin = isAdminPath(req.path)
    return journaled(req, namespace, admin, body, (journaledBody) =>
      admin
        ? mapNow(
          Effect.catchAllDefect(mapNow(adminAnswer(req, journaledBody, namespace), (r) => [r, "admin"] as const), crashed(adminRoute(req), "admin")),
          (a) => [a, null] as const
        )
        : dispatch(req, journaledBody, namespace))
  }

  const handle: AppHandler = (req) => serve(req, bodyInMemory(req.body))

  return { handle, serve, router, features, config }
})

