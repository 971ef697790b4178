/**
 * POST /api/platforms/{platform}/events: HTTP events for messaging platforms (0.19.0 source). The
 * route takes no API key (each platform adapter verifies its own requests); a gateway that runs
 * only the API server has no adapter that accepts HTTP events, so after the name check every
 * request ends in 503: the api_server adapter itself has no event verifier, any other platform is
 * not connected.
 */
import { Effect } from "effect"
import { errorResponse } from "../../http/Envelopes.js"
import type { Handler } from "../../http/Route.js"
import { pyStrip } from "../../python/index.js"

/** `_normalize_callback_platform`: lower-cased, dashes as underscores, [a-z0-9_]+ or nothing. */
export const normalizePlatformName = (value: string): string => {
  const normalized = pyStrip(value).toLowerCase().replaceAll("-", "_")
  return /^[a-z0-9_]+$/.test(normalized) ? normalized : ""
}

export const platformEvents: Handler = (ctx) =>
  Effect.sync(() => {
    const platform = normalizePlatformName(ctx.params["platform"] ?? "")
    if (platform === "") return errorResponse(400, "Invalid platform name", { code: "invalid_platform" })
    if (platform === "api_server") {
      return errorResponse(503, "Platform adapter does not support HTTP events", { code: "platform_http_events_unsupported" })
    }
    return errorResponse(503, "Platform adapter is not connected", { code: "platform_unavailable" })
  })
