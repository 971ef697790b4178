/**
 * The body of POST /v1/runs, read once and checked in upstream's order: JSON → (0.21.0)
 * Idempotency-Key → input → user message → conversation_history. Each check answers with
 * upstream's envelope; a body that is not an object, or an input whose last item is not one,
 * crashes the handler as upstream's does. What the run needs later (the agent's user message and
 * history, the status' session id and model, the ledger fingerprint) is derived here, once.
 */
import { Effect, Either } from "effect"
import type { AgentMessage } from "../../agent/AgentMessages.js"
import { errorResponse } from "../../http/Envelopes.js"
import type { EmuRequest, EmuResponse } from "../../http/Exchange.js"
import { readJsonParsed } from "../../http/RequestBody.js"
import { HandlerCrash, type RouteContext } from "../../http/Route.js"
import { isDict, pyStr, pyStrip, pyTruthy, type PyValue } from "../../python/index.js"
import { getStoredResponse, sqlKey, type StoredResponse } from "../responses/ResponseStore.js"

export interface RunRequest {
  readonly body: Record<string, unknown>
  /** The body as Python holds it (for the ledger fingerprint). */
  readonly py: PyValue
  /** The stripped Idempotency-Key ("" when absent or the pin keeps no ledger). */
  readonly idempotencyKey: string
  /** What the agent is asked: the string input, or the last input item's content. */
  readonly userMessage: unknown
}

const IDEMPOTENCY_KEY_VALID = /^[\x21-\x7e]{1,255}$/

type Read = Either.Either<RunRequest, EmuResponse | HandlerCrash>

const reject = (answer: EmuResponse | HandlerCrash): Read => Either.left(answer)
const invalid = (message: string) => reject(errorResponse(400, message))

/** The request, or what ends it: an answer (400) or the crash upstream's handler would have. */
export const readRunRequest = (ctx: RouteContext, req: EmuRequest): Read => {
  const parsed = readJsonParsed(req)
  if (Either.isLeft(parsed)) return invalid("Invalid JSON")
  const body = parsed.right.value
  const idempotencyKey = ctx.features.runsIdempotencyLedger ? pyStrip(ctx.req.headers["idempotency-key"] ?? "") : ""
  if (idempotencyKey !== "" && !IDEMPOTENCY_KEY_VALID.test(idempotencyKey)) {
    return reject(errorResponse(400, "Idempotency-Key must be 1-255 visible ASCII characters", { code: "invalid_idempotency_key" }))
  }
  // upstream calls body.get(...) on whatever json.loads returned: a non-object crashes the handler
  if (!isDict(body)) return reject(new HandlerCrash({ reason: "'body' has no attribute 'get'" }))
  const rawInput = body["input"]
  if (!pyTruthy(rawInput)) return invalid("Missing 'input' field")
  let userMessage: unknown = ""
  if (typeof rawInput === "string") userMessage = rawInput
  else if (Array.isArray(rawInput)) {
    const last: unknown = rawInput[rawInput.length - 1]
    // upstream calls .get on the last item: anything but a dict crashes the handler
    if (!isDict(last)) return reject(new HandlerCrash({ reason: "input[-1] has no attribute 'get'" }))
    userMessage = "content" in last ? last["content"] : ""
  }
  if (!pyTruthy(userMessage)) return invalid("No user message found in input")
  const rawHistory = body["conversation_history"]
  if (pyTruthy(rawHistory)) {
    if (!Array.isArray(rawHistory)) return invalid("'conversation_history' must be an array of message objects")
    for (let i = 0; i < rawHistory.length; i++) {
      const entry: unknown = rawHistory[i]
      if (!isDict(entry) || !("role" in entry) || !("content" in entry)) {
        return invalid(`conversation_history[${i}] must have 'role' and 'content' fields`)
      }
    }
  }
  return Either.right({ body, py: parsed.right.py, idempotencyKey, userMessage })
}

/**
 * previous_response_id without explicit history: the stored response's session (its transcript and
 * instructions would feed the agent, which the Script stands in for). An unknown id is ignored,
 * unlike on /v1/responses; the lookup still refreshes the response's LRU position, and a value
 * SQLite cannot bind crashes the handler, as upstream's does. Undefined when there is no chain.
 */
export const chainedResponse = (ctx: RouteContext, request: RunRequest) => {
  const previous = request.body["previous_response_id"]
  if (pyTruthy(request.body["conversation_history"]) || !pyTruthy(previous)) return undefined
  const key = sqlKey(previous)
  if (Either.isLeft(key)) return Effect.fail(new HandlerCrash({ reason: key.left }))
  return getStoredResponse(ctx.namespace, key.right, ctx.now())
}

/**
 * The history the run's agent sees, as upstream builds it: explicit conversation_history (role and
 * content as str), else the chained response's stored transcript, else every input item but the
 * last that has a truthy role and content (a content list flattened to its text parts).
 */
export const runHistory = (request: RunRequest, chained: StoredResponse | undefined): Array<AgentMessage> => {
  const explicit = request.body["conversation_history"]
  if (pyTruthy(explicit) && Array.isArray(explicit)) {
    return explicit.map((entry: unknown) => {
      const e = entry as Record<string, unknown>
      return { role: pyStr(e["role"]), content: pyStr(e["content"]) }
    })
  }
  if (chained !== undefined && chained.conversation_history.length > 0) return [...chained.conversation_history]
  const input = request.body["input"]
  if (!Array.isArray(input) || input.length < 2) return []
  const history: Array<AgentMessage> = []
  for (const msg of input.slice(0, -1)) {
    if (!isDict(msg) || !pyTruthy(msg["role"]) || !pyTruthy(msg["content"])) continue
    const content = msg["content"]
    const text = Array.isArray(content)
      ? content
        .filter((part: unknown) => isDict(part) && part["type"] === "text")
        .map((part: unknown) => {
          const t = (part as Record<string, unknown>)["text"]
          return t === undefined ? "" : pyStr(t)
        })
        .join(" ")
      : pyStr(content)
    history.push({ role: msg["role"], content: text })
  }
  return history
}

/** The status' session id: the body's, else the chained response's, else the run id. */
export const runSessionId = (request: RunRequest, chained: StoredResponse | undefined, runId: string): unknown => {
  const own = request.body["session_id"]
  if (pyTruthy(own)) return own
  const chainedId = chained?.session_id
  return pyTruthy(chainedId) ? chainedId : runId
}
