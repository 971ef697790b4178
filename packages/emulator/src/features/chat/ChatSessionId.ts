/**
 * The session a chat completion runs under. With X-Hermes-Session-Id the caller names it (only
 * with an API key configured; control characters, path-like ids and ids over 256 characters are
 * refused). Without it, Hermes derives a stable id from the conversation's opening, so every turn
 * of one client conversation lands on one session: "api-" + the first 16 hex digits of
 * sha256(system prompt + "\n" + first user message), where a non-string first message is
 * formatted as Python's str() would.
 */
import { nodeCrypto } from "../../services/NodeCrypto.js"
import { bareErrorResponse, errorResponse } from "../../http/Envelopes.js"
import type { EmuResponse } from "../../http/Exchange.js"
import type { RouteContext } from "../../http/Route.js"
import { pyHeaderText, pyStr, pyStrip } from "../../python/index.js"
// the header and POST /api/sessions share one guard upstream (gateway.session._is_path_unsafe)
import { hasControlBreak, isPathUnsafe } from "../sessions/SessionIds.js"

const MAX_SESSION_HEADER_LEN = 256

export const deriveChatSessionId = (systemPrompt: string | undefined, firstUserContent: unknown): string => {
  const seed = `${systemPrompt ?? ""}\n${pyStr(firstUserContent)}`
  return `api-${nodeCrypto().createHash("sha256").update(seed, "utf8").digest("hex").slice(0, 16)}`
}

/** Python len(): code points. */
const pyLen = (s: string): number => [...s].length

export type SessionIdHeader =
  | { readonly _tag: "absent" }
  | { readonly _tag: "given"; readonly sessionId: string }
  | { readonly _tag: "rejected"; readonly response: EmuResponse }

export const parseSessionIdHeader = (ctx: RouteContext): SessionIdHeader => {
  // aiohttp reads header bytes as UTF-8 with surrogateescape: a lone non-UTF-8 byte is a surrogate, no letter
  const raw = pyStrip(pyHeaderText(ctx.req.headers["x-hermes-session-id"] ?? ""))
  if (raw === "") return { _tag: "absent" }
  // Stryker disable all: keyless mode: the emulator's own, since 0.19.0 refuses to start without API_SERVER_KEY, so no recording can judge it
  if (ctx.config.apiKey === "") {
    return {
      _tag: "rejected",
      response: errorResponse(
        403,
        "Session continuation requires API key authentication. Configure API_SERVER_KEY to enable this feature."
      )
    }
  }
  // Stryker restore all
  if (hasControlBreak(raw) || isPathUnsafe(raw)) {
    return { _tag: "rejected", response: bareErrorResponse(400, "Invalid session ID") }
  }
  if (pyLen(raw) > MAX_SESSION_HEADER_LEN) return { _tag: "rejected", response: bareErrorResponse(400, "Session ID too long") }
  return { _tag: "given", sessionId: raw }
}
