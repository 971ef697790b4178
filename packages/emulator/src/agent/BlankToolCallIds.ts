/**
 * The id Hermes 0.19.0 makes up for a tool call the model sent with a blank id (empty or only
 * whitespace) when it stores the assistant message (build_assistant_message): `call_` and the
 * first 12 hex digits of the sha256 of "name:arguments:index", the index being the call's place in
 * the message. Made from the call, not random, so a replayed history keeps its prompt-cache prefix.
 * The tool result still answers the raw blank id, so the repair before the next model call drops it
 * and stubs the made-up one (observed live on 0.19.0). The seed is hashed as UTF-8 (Node's default for
 * a string); a lone surrogate, which upstream would encode as "?", comes out as U+FFFD here.
 */
import { nodeCrypto } from "../services/NodeCrypto.js"

/** Hex digits of the sha256 the made-up id keeps. */
const DIGEST_KEEP = 12

export const blankToolCallId = (name: string, argumentsText: string, index: number): string =>
  `call_${nodeCrypto().createHash("sha256").update(`${name}:${argumentsText}:${index}`).digest("hex").slice(0, DIGEST_KEEP)}`
