/**
 * What every /api/sessions handler shares: the JSON-object body check (`_read_json_body`), the
 * 404 for an unknown session (`_get_existing_session_or_404`), and the `{"object":
 * "hermes.session", ...}` envelope.
 */
import { Effect, Either } from "effect"
import { errorResponse } from "../../http/Envelopes.js"
import { type EmuResponse, jsonResponse } from "../../http/Exchange.js"
import { readJson } from "../../http/RequestBody.js"
import type { RouteContext } from "../../http/Route.js"
import type { SessionRow } from "./SessionRow.js"
import { getSession } from "./SessionStore.js"
import { sessionView } from "./SessionView.js"
import { isDict } from "../../python/index.js"

export type BodyResult =
  | { readonly _tag: "ok"; readonly body: Record<string, unknown> }
  | { readonly _tag: "rejected"; readonly response: EmuResponse }

/** Reads the body (at this point of the handler, as upstream awaits it). */
export const readObjectBody = (ctx: RouteContext): Effect.Effect<BodyResult> =>
  Effect.map(ctx.readBody, (req): BodyResult => {
    const parsed = readJson(req)
    if (Either.isLeft(parsed)) return { _tag: "rejected", response: errorResponse(400, "Invalid JSON in request body") }
    if (!isDict(parsed.right)) {
      return { _tag: "rejected", response: errorResponse(400, "Request body must be a JSON object") }
    }
    return { _tag: "ok", body: parsed.right }
  })

export const sessionNotFound = (id: string): EmuResponse =>
  errorResponse(404, `Session not found: ${id}`, { code: "session_not_found" })

export type Lookup =
  | { readonly _tag: "found"; readonly session: SessionRow }
  | { readonly _tag: "missing"; readonly response: EmuResponse }

export const existingSession = (ctx: RouteContext, id: string) =>
  Effect.map(
    getSession(ctx.namespace, id),
    (session): Lookup =>
      session === undefined ? { _tag: "missing", response: sessionNotFound(id) } : { _tag: "found", session }
  )

/** The envelope around a session's view (a stored row's, or the fork route's stand-in). */
export const sessionViewEnvelope = (view: Record<string, unknown>, status = 200): EmuResponse =>
  jsonResponse({ object: "hermes.session", session: view }, status)

export const sessionEnvelope = (ctx: RouteContext, session: SessionRow, status = 200): EmuResponse =>
  sessionViewEnvelope(sessionView(session, ctx.features), status)

export const sessionIdParam = (ctx: RouteContext): string => ctx.params["session_id"] ?? ""
