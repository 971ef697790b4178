/**
 * The body of POST /v1/chat/completions as Hermes reads it, in upstream's order of checks:
 * `messages` must be a non-empty list; system messages are flattened to text and joined with "\n"
 * into the ephemeral system prompt; user and assistant contents are normalized (images allowed,
 * files rejected with a coded 400 naming `messages[i].content`); other roles are dropped. The last
 * kept message is the turn's input (even an assistant one); the ones before it are history.
 * Anything upstream calls `.get` on that is not a dict (the body, a message) crashes the handler.
 */
import { Either } from "effect"
import { contentErrorResponse, hasVisiblePayload, normalizeMultimodalContent, type NormalizedContent } from "../../content/MultimodalContent.js"
import { bareErrorResponse, errorResponse } from "../../http/Envelopes.js"
import type { EmuResponse } from "../../http/Exchange.js"
import { normalizeChatContent } from "./ChatContent.js"
import { coerceRequestBool, isDict, pyTruthy } from "../../python/index.js"

export interface ChatMessage {
  readonly role: "user" | "assistant"
  readonly content: NormalizedContent
}

export interface ChatTurnRequest {
  readonly body: Record<string, unknown>
  readonly stream: boolean
  readonly systemPrompt: string | undefined
  readonly userMessage: NormalizedContent
  readonly history: ReadonlyArray<ChatMessage>
  /** The first user message's content ("" when none): half of the derived session id. */
  readonly firstUserContent: NormalizedContent
  /** `body.get("model", <advertised name>)`: echoed verbatim, whatever its type. */
  readonly model: unknown
}

export type ChatRequestParse =
  | { readonly _tag: "ok"; readonly request: ChatTurnRequest }
  | { readonly _tag: "rejected"; readonly response: EmuResponse }
  /** Upstream raises (AttributeError on a non-dict): aiohttp's bare 500. */
  | { readonly _tag: "crash"; readonly reason: string }

const rejected = (response: EmuResponse): ChatRequestParse => ({ _tag: "rejected", response })

const streamFlag = (value: unknown): boolean => coerceRequestBool(value, false)

export const parseChatRequest = (parsed: Either.Either<unknown, unknown>, advertisedModel: string): ChatRequestParse => {
  if (Either.isLeft(parsed)) return rejected(errorResponse(400, "Invalid JSON in request body"))
  const body = parsed.right
  if (!isDict(body)) return { _tag: "crash", reason: "'body' has no attribute 'get'" }
  const messages = body["messages"]
  if (!pyTruthy(messages) || !Array.isArray(messages)) {
    return rejected(bareErrorResponse(400, "Missing or invalid 'messages' field"))
  }
  const stream = streamFlag(body["stream"])
  let systemPrompt: string | undefined
  const kept: Array<ChatMessage> = []
  for (let idx = 0; idx < messages.length; idx++) {
    const msg: unknown = messages[idx]
    if (!isDict(msg)) return { _tag: "crash", reason: `messages[${idx}] has no attribute 'get'` }
    const role: unknown = "role" in msg ? msg["role"] : ""
    const raw: unknown = "content" in msg ? msg["content"] : ""
    if (role === "system") {
      const text = normalizeChatContent(raw)
      systemPrompt = systemPrompt === undefined ? text : `${systemPrompt}\n${text}`
    } else if (role === "user" || role === "assistant") {
      const content = normalizeMultimodalContent(raw)
      if (Either.isLeft(content)) return rejected(contentErrorResponse(content.left, `messages[${idx}].content`))
      kept.push({ role, content: content.right })
    }
  }
  const last = kept[kept.length - 1]
  const userMessage: NormalizedContent = last?.content ?? ""
  if (!hasVisiblePayload(userMessage)) return rejected(bareErrorResponse(400, "No user message found in messages"))
  return {
    _tag: "ok",
    request: {
      body,
      stream,
      systemPrompt,
      userMessage,
      history: kept.slice(0, -1),
      firstUserContent: kept.find((m) => m.role === "user")?.content ?? "",
      model: "model" in body ? body["model"] : advertisedModel
    }
  }
}
