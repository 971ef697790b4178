/**
 * Whether a Turn's `when` holds for a model call, and which `when` fields a player can honour.
 *
 * The fake model sees only what Hermes sends the model: the messages (so the last user message)
 * and the model name. It cannot see the operation or the session (observed on 0.19.0: the
 * request carries neither, in body or headers, and the system prompt is the same for every
 * operation). A player that cannot see a field refuses a Script that conditions on it, rather than
 * playing it differently from one that can.
 */
import { lastUserText, type ModelCall } from "./ModelCall.js"
import type { TextMatch, Turn, When } from "./Script.js"

export type WhenField = keyof When

export const ALL_WHEN_FIELDS: ReadonlyArray<WhenField> = ["lastUserMessage", "model", "operation", "sessionId"]
/** What the fake model can see of a model call. */
export const MODEL_CALL_WHEN_FIELDS: ReadonlyArray<WhenField> = ["lastUserMessage", "model"]

export const textMatches = (match: TextMatch, text: string): boolean => {
  if ("equals" in match) return text === match.equals
  if ("contains" in match) return text.includes(match.contains)
  return new RegExp(match.matches, match.flags ?? "").test(text)
}

export const whenMatches = (when: When, call: ModelCall): boolean =>
  (when.lastUserMessage === undefined || textMatches(when.lastUserMessage, lastUserText(call))) &&
  (when.model === undefined || when.model === call.model) &&
  (when.operation === undefined || when.operation === call.operation) &&
  (when.sessionId === undefined || when.sessionId === call.sessionId)

/** The `when` fields of these turns that a player seeing only `seen` cannot honour. */
export const unseenWhenFields = (turns: ReadonlyArray<Turn>, seen: ReadonlyArray<WhenField>): ReadonlyArray<WhenField> => {
  const unseen = new Set<WhenField>()
  for (const turn of turns) {
    for (const field of ALL_WHEN_FIELDS) if (turn.when?.[field] !== undefined && !seen.includes(field)) unseen.add(field)
  }
  return [...unseen]
}
