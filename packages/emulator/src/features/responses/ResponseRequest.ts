/**
 * The body of POST /v1/responses, checked in upstream's order (0.19.0 `_handle_responses`): each
 * check answers with upstream's own envelope — the bare one for unparsable JSON, the full one
 * elsewhere, 404 for an unknown previous_response_id — and a value SQLite cannot bind, or a body
 * that is not an object, crashes the handler as upstream's does.
 *
 * Resolving the chain reads the store (and so refreshes the LRU position of the previous response)
 * before the last checks run, exactly as upstream does.
 */
import { Effect, Either } from "effect"
import type { AgentMessage } from "../../agent/AgentMessages.js"
import { contentErrorResponse, hasVisiblePayload, normalizeMultimodalContent } from "../../content/MultimodalContent.js"
import { bareErrorResponse, errorResponse } from "../../http/Envelopes.js"
import type { EmuResponse } from "../../http/Exchange.js"
import { readJsonParsed } from "../../http/RequestBody.js"
import { HandlerCrash, type RouteContext } from "../../http/Route.js"
import { getConversation, getStoredResponse, sqlKey } from "./ResponseStore.js"
import { coerceRequestBool, isDict, type PyDict, pyStr, pyTruthy } from "../../python/index.js"

/** RESPONSES_AUTO_TRUNCATION_HISTORY_LIMIT. */
export const TRUNCATION_HISTORY_LIMIT = 100

export interface ResponseRequest {
  readonly body: Record<string, unknown>
  /** The body as Python holds it (for the idempotency fingerprint). */
  readonly py: PyDict
  readonly history: Array<AgentMessage>
  readonly userMessage: unknown
  readonly instructions: unknown
  /** The conversation name, when the request names one (any pyTruthy JSON value). */
  readonly conversation: unknown
  readonly store: boolean
  readonly stream: boolean
  /** The chained response's session id, if any. */
  readonly storedSessionId: unknown
}

const invalid = (message: string) => errorResponse(400, message)

const bindOrCrash = (value: unknown) => {
  const key = sqlKey(value)
  return Either.isLeft(key) ? Effect.fail(new HandlerCrash({ reason: key.left })) : Effect.succeed(key.right)
}

export const parseResponseRequest = (
  ctx: RouteContext
): Effect.Effect<Either.Either<ResponseRequest, EmuResponse>, HandlerCrash, import("@effect/sql").SqlClient.SqlClient> =>
  Effect.gen(() => readResponseRequest(ctx))

function* readResponseRequest(ctx: RouteContext) {
  const reject = (res: EmuResponse): Either.Either<ResponseRequest, EmuResponse> => Either.left(res)
  const parsed = readJsonParsed(yield* ctx.readBody)
  if (Either.isLeft(parsed)) return reject(bareErrorResponse(400, "Invalid JSON in request body"))
  const body = parsed.right.value
  // upstream calls body.get(...) on whatever json.loads returned
  if (!isDict(body)) return yield* new HandlerCrash({ reason: "'body' has no attribute 'get'" })
  const rawInput = body["input"]
  if (rawInput === null || rawInput === undefined) return reject(invalid("Missing 'input' field"))
  let instructions: unknown = "instructions" in body ? body["instructions"] : null
  let previousId: unknown = body["previous_response_id"] ?? null
  const conversation: unknown = body["conversation"] ?? null
  const store = coerceRequestBool(body["store"], true)
  if (pyTruthy(conversation) && pyTruthy(previousId)) {
    return reject(invalid("Cannot use both 'conversation' and 'previous_response_id'"))
  }
  if (pyTruthy(conversation)) {
    // no error for an unknown name: it is a new conversation
    previousId = (yield* getConversation(ctx.namespace, yield* bindOrCrash(conversation))) ?? null
  }

  const inputMessages: Array<AgentMessage> = []
  if (typeof rawInput === "string") inputMessages.push({ role: "user", content: rawInput })
  else if (Array.isArray(rawInput)) {
    for (let i = 0; i < rawInput.length; i++) {
      const item: unknown = rawInput[i]
      if (typeof item === "string") inputMessages.push({ role: "user", content: item })
      else if (isDict(item)) {
        const content = normalizeMultimodalContent("content" in item ? item["content"] : "")
        if (Either.isLeft(content)) return reject(contentErrorResponse(content.left, `input[${i}].content`))
        inputMessages.push({ role: "role" in item ? item["role"] : "user", content: content.right })
      }
      // anything else in the list is skipped, as upstream skips it
    }
  } else return reject(invalid("'input' must be a string or array"))

  const history: Array<AgentMessage> = []
  const rawHistory = body["conversation_history"]
  if (pyTruthy(rawHistory)) {
    if (!Array.isArray(rawHistory)) return reject(invalid("'conversation_history' must be an array of message objects"))
    for (let i = 0; i < rawHistory.length; i++) {
      const entry: unknown = rawHistory[i]
      if (!isDict(entry) || !("role" in entry) || !("content" in entry)) {
        return reject(invalid(`conversation_history[${i}] must have 'role' and 'content' fields`))
      }
      const content = normalizeMultimodalContent(entry["content"])
      if (Either.isLeft(content)) return reject(contentErrorResponse(content.left, `conversation_history[${i}].content`))
      history.push({ role: pyStr(entry["role"]), content: content.right })
    }
  }

  let storedSessionId: unknown = null
  if (history.length === 0 && pyTruthy(previousId)) {
    const stored = yield* getStoredResponse(ctx.namespace, yield* bindOrCrash(previousId), ctx.now())
    if (stored === undefined) return reject(errorResponse(404, `Previous response not found: ${pyStr(previousId)}`))
    history.push(...(Array.isArray(stored.conversation_history) ? stored.conversation_history : []))
    storedSessionId = stored.session_id ?? null
    if (instructions === null) instructions = stored.instructions ?? null
  }
  history.push(...inputMessages.slice(0, -1))
  const last = inputMessages[inputMessages.length - 1]
  const userMessage: unknown = last === undefined ? "" : last["content"]
  if (!hasVisiblePayload(userMessage)) return reject(invalid("No user message found in input"))
  const truncated =
    body["truncation"] === "auto" && history.length > TRUNCATION_HISTORY_LIMIT
      ? history.slice(-TRUNCATION_HISTORY_LIMIT)
      : history
  return Either.right({
    body,
    py: parsed.right.py as PyDict,
    history: truncated,
    userMessage,
    instructions,
    conversation,
    store,
    stream: coerceRequestBool(body["stream"], false),
    storedSessionId
  })
}
