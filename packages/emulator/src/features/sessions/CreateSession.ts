/**
 * POST /api/sessions: an empty session row. Check, insert and title run as one transaction, as
 * upstream's do: a duplicate id is 409, a title another session holds is 400 and leaves no row,
 * and a title that fails sanitising (too long) is an exception upstream lets escape (plain 500),
 * also leaving no row. The row is read back in the same transaction.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Either } from "effect"
import { errorResponse } from "../../http/Envelopes.js"
import { HandlerCrash, type Handler, type RouteContext } from "../../http/Route.js"
import { Ids } from "../../services/Ids.js"
import { hasControlBreak, isPathUnsafe, MAX_SESSION_ID_LENGTH, newApiSessionId } from "./SessionIds.js"
import { sanitizeTitle } from "./SessionTitle.js"
import { deleteSessionRow, getSession, titleHolder, upsertSession, writeTitle } from "./SessionStore.js"
import { readObjectBody, sessionEnvelope } from "./SessionRouteSupport.js"
import { pyStr, pyStrip, pyTruthy, pyUtf8Encodable } from "../../python/index.js"

/** 0.21.0 (reference notes): the sources a client may claim; "browser" is an alias. */
const ALLOWED_SOURCES = new Set(["api_server", "hermes_browser", "cli", "telegram", "discord", "slack", "desktop", "dashboard"])

const sourceOf = (ctx: RouteContext, body: Record<string, unknown>): string => {
  if (!ctx.features.sessionCreateSource) return "api_server"
  const raw = body["source"]
  if (raw === "browser") return "hermes_browser"
  return typeof raw === "string" && ALLOWED_SOURCES.has(raw) ? raw : "api_server"
}

export const createSessionRoute: Handler = (ctx) => Effect.gen(() => createSession(ctx))

function* createSession(ctx: RouteContext) {
  const read = yield* readObjectBody(ctx)
  if (read._tag === "rejected") return read.response
  const body = read.body
  const ids = yield* Ids
  const rawId = pyTruthy(body["id"]) ? body["id"] : body["session_id"]
  const id = pyTruthy(rawId) ? pyStrip(pyStr(rawId)) : newApiSessionId(ids, ctx.now())
  if (id === "" || hasControlBreak(id) || isPathUnsafe(id)) {
    return errorResponse(400, "Invalid session ID", { code: "invalid_session_id" })
  }
  if ([...id].length > MAX_SESSION_ID_LENGTH) {
    return errorResponse(400, "Session ID too long", { code: "invalid_session_id" })
  }
  const model = pyStr(pyTruthy(body["model"]) ? body["model"] : ctx.config.modelName)
  const systemPrompt = body["system_prompt"] ?? null
  if (systemPrompt !== null && typeof systemPrompt !== "string") {
    return errorResponse(400, "system_prompt must be a string", { code: "invalid_system_prompt" })
  }
  const title = body["title"] ?? null
  const source = sourceOf(ctx, body)
  // sqlite3 encodes parameters strictly: a lone surrogate in the id raises on the first query
  if (!pyUtf8Encodable(id)) return yield* new HandlerCrash({ reason: "UnicodeEncodeError: surrogates not allowed" })
  const sql = yield* SqlClient.SqlClient
  return yield* sql
    .withTransaction(Effect.gen(() => createInTransaction(ctx, id, source, model, systemPrompt, title)))
    .pipe(Effect.catchTag("SqlError", (e) => Effect.die(e)))
}

/**
 * The insert and the read back, in one transaction as upstream's: it holds the one connection, so
 * no DELETE of another client can land between them (the fork route's read back is not so kept).
 */
function* createInTransaction(ctx: RouteContext, id: string, source: string, model: string, systemPrompt: string | null, title: unknown) {
  const refused = yield* Effect.gen(() => insertSessionRow(ctx, id, source, model, systemPrompt, title))
  if (refused !== undefined) return refused
  const session = yield* getSession(ctx.namespace, id)
  if (session === undefined) return yield* new HandlerCrash({ reason: "session vanished inside its create transaction" })
  return sessionEnvelope(ctx, session, 201)
}

/** Inserts the row (and its title) inside the caller's transaction: the refusal to answer, or undefined once the row is in. */
function* insertSessionRow(ctx: RouteContext, id: string, source: string, model: string, systemPrompt: string | null, title: unknown) {
  if ((yield* getSession(ctx.namespace, id)) !== undefined) {
    return errorResponse(409, `Session already exists: ${id}`, { code: "session_exists" })
  }
  yield* upsertSession(ctx.namespace, {
    id,
    source,
    model,
    modelConfig: null,
    systemPrompt,
    parentSessionId: null,
    startedAt: ctx.now()
  })
  if (title !== null) {
    const clean = sanitizeTitle(pyStr(title))
    // upstream raises inside the write transaction: rolled back, and aiohttp answers 500
    if (Either.isLeft(clean)) return yield* new HandlerCrash({ reason: clean.left })
    if (clean.right !== null) {
      const holder = yield* titleHolder(ctx.namespace, clean.right, id)
      if (holder !== undefined) {
        yield* deleteSessionRow(ctx.namespace, id)
        return errorResponse(400, `Title already in use by session ${holder}`, { code: "invalid_title" })
      }
    }
    yield* writeTitle(ctx.namespace, id, clean.right)
  }
  return undefined
}
