/**
 * The gate in front of every agent-serving route (after the app's bearer gate): the draining 503, the pending-work
 * reservation that the concurrency cap counts, and the X-Hermes-Session-Key header.
 */
import { Effect } from "effect"
import { bareErrorResponse, errorResponse } from "./Envelopes.js"
import type { EmuResponse } from "./Exchange.js"
import type { AppServices, HandlerCrash, RouteContext } from "./Route.js"
import { pyStrip } from "../python/index.js"

/** `_admit_api_agent_request` past its auth check: drain check → reservation held until handed to agent work. */
export const admitAgentRequest = (
  ctx: RouteContext,
  handler: (release: () => void) => Effect.Effect<EmuResponse, HandlerCrash, AppServices>
): Effect.Effect<EmuResponse, HandlerCrash, AppServices> =>
  Effect.suspend(() => {
    if (ctx.gateway.draining) {
      return Effect.succeed(
        errorResponse(503, "Gateway is draining existing work; retry shortly.", {
          code: "gateway_draining",
          headers: [["Retry-After", "1"]]
        })
      )
    }
    const gw = ctx.gateway
    let active = true
    gw.pendingAgentRequests += 1
    const release = () => {
      if (active) {
        active = false
        gw.pendingAgentRequests = Math.max(0, gw.pendingAgentRequests - 1)
      }
    }
    // released when the request's fiber ends, however it ends; an observer rather than
    // `Effect.ensuring` (see docs/performance.md, "What a request leaves behind")
    return Effect.withFiberRuntime<EmuResponse, HandlerCrash, AppServices>((fiber) => {
      fiber.addObserver(release)
      return handler(release)
    })
  })

/** `_concurrency_limited_response`: the caller's own reservation does not count against it. */
export const concurrencyLimited = (ctx: RouteContext): EmuResponse | undefined => {
  const limit = ctx.config.maxConcurrentRuns
  if (limit <= 0) return undefined
  const inflight = ctx.gateway.activeAgentWorkCount() - 1
  if (inflight < limit) return undefined
  return errorResponse(429, `Too many concurrent runs (max ${limit})`, {
    type: "rate_limit_error",
    code: "rate_limit_exceeded",
    headers: [["Retry-After", "1"]]
  })
}

export type SessionKeyHeader =
  | { readonly _tag: "ok"; readonly key: string | undefined }
  | { readonly _tag: "rejected"; readonly response: EmuResponse }

const MAX_SESSION_HEADER_LEN = 256

/** `_parse_session_key_header`. */
export const parseSessionKeyHeader = (ctx: RouteContext): SessionKeyHeader => {
  const raw = pyStrip(ctx.req.headers["x-hermes-session-key"] ?? "")
  if (raw === "") return { _tag: "ok", key: undefined }
  // Stryker disable all: keyless mode: the emulator's own, since 0.19.0 refuses to start without API_SERVER_KEY, so no recording can judge it
  if (ctx.config.apiKey === "") {
    return {
      _tag: "rejected",
      response: errorResponse(
        403,
        "X-Hermes-Session-Key requires API key authentication. Configure API_SERVER_KEY to enable this feature."
      )
    }
  }
  // Stryker restore all
  if (/[\r\n\0]/.test(raw)) return { _tag: "rejected", response: bareErrorResponse(400, "Invalid session key") }
  if (raw.length > MAX_SESSION_HEADER_LEN) {
    return { _tag: "rejected", response: bareErrorResponse(400, "Session key too long") }
  }
  return { _tag: "ok", key: raw }
}
