/**
 * The request side shared by POST /api/sessions/{id}/chat and …/chat/stream, in upstream's order:
 * session-key header, the 404, the JSON-object body, `message` (or `input`) with a visible payload
 * normalized like chat content, then `system_message`/`instructions` as a string.
 */
import { Effect, Either } from "effect"
import { contentErrorResponse, hasVisiblePayload, normalizeMultimodalContent } from "../../content/MultimodalContent.js"
import { errorResponse } from "../../http/Envelopes.js"
import type { EmuResponse } from "../../http/Exchange.js"
import type { RouteContext } from "../../http/Route.js"
import { parseSessionKeyHeader } from "../../http/Admission.js"
import { existingSession, readObjectBody, sessionIdParam } from "./SessionRouteSupport.js"
import { pyTruthy } from "../../python/index.js"

export interface SessionChatRequest {
  readonly sessionId: string
  readonly sessionKey: string | undefined
  readonly userMessage: unknown
  /** `system_message` (or `instructions`): the turn's ephemeral system prompt. */
  readonly systemPrompt: string | undefined
}

export type ParsedChat =
  | { readonly _tag: "ok"; readonly request: SessionChatRequest }
  | { readonly _tag: "rejected"; readonly response: EmuResponse }

export const parseSessionChat = (ctx: RouteContext) => Effect.gen(() => readSessionChat(ctx))

function* readSessionChat(ctx: RouteContext) {
  const reject = (response: EmuResponse): ParsedChat => ({ _tag: "rejected", response })
  const key = parseSessionKeyHeader(ctx)
  if (key._tag === "rejected") return reject(key.response)
  const sessionId = sessionIdParam(ctx)
  const found = yield* existingSession(ctx, sessionId)
  if (found._tag === "missing") return reject(found.response)
  const read = yield* readObjectBody(ctx)
  if (read._tag === "rejected") return reject(read.response)
  const body = read.body
  const raw = pyTruthy(body["message"]) ? body["message"] : body["input"]
  if (!hasVisiblePayload(raw)) return reject(errorResponse(400, "Missing 'message' field", { code: "missing_message" }))
  const normalized = normalizeMultimodalContent(raw)
  if (Either.isLeft(normalized)) return reject(contentErrorResponse(normalized.left, "message"))
  const system = pyTruthy(body["system_message"]) ? body["system_message"] : body["instructions"]
  if (system !== null && system !== undefined && typeof system !== "string") {
    return reject(errorResponse(400, "system_message must be a string", { code: "invalid_system_message" }))
  }
  const systemPrompt = typeof system === "string" ? system : undefined
  return { _tag: "ok", request: { sessionId, sessionKey: key.key, userMessage: normalized.right, systemPrompt } } satisfies ParsedChat
}
