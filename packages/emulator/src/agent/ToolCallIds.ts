/**
 * The ids Hermes 0.19.0 stores on an assistant message's tool call (build_assistant_message), from
 * the id the model gave it: a `call|item` id is split in two, the call id is stripped, and the
 * Responses item id (`fc_…`) is the embedded one when it starts with `fc_`, else made from the call
 * id (`_derive_responses_function_call_id`). The tool results keep the model's raw id, so an id that
 * changes here leaves its result orphaned for the next repair.
 */
import { pyStrip } from "../python/index.js"
import { nodeCrypto } from "../services/NodeCrypto.js"

export interface StoredToolCallIds {
  readonly callId: string
  readonly responseItemId: string
}

const FC = "fc_"
const CALL = "call_"
/** How much of a sanitized id an item id keeps. */
const ITEM_ID_KEEP = 48
/** Hex digits of the sha1 an item id falls back to. */
const DIGEST_KEEP = 24

/** `_split_responses_tool_id`: [call id, item id], either absent. */
const splitRawId = (raw: string): readonly [string | undefined, string | undefined] => {
  const value = pyStrip(raw)
  if (value === "") return [undefined, undefined]
  const bar = value.indexOf("|")
  if (bar !== -1) return [pyStrip(value.slice(0, bar)) || undefined, pyStrip(value.slice(bar + 1)) || undefined]
  return value.startsWith(FC) ? [undefined, value] : [value, undefined]
}

/** An `fc_` id as it stands, `call_x` as `fc_x`; undefined for any other id. */
const asItemId = (id: string): string | undefined => {
  if (id.startsWith(FC)) return id
  return id.startsWith(CALL) && id.length > CALL.length ? `${FC}${id.slice(CALL.length)}` : undefined
}

/** An item id: the embedded one when it is `fc_`, else made from the call id (as is, sanitized, or hashed). */
const itemIdFrom = (callId: string, embedded: string | undefined): string => {
  const candidate = embedded === undefined ? "" : pyStrip(embedded)
  if (candidate.startsWith(FC)) return candidate
  const source = pyStrip(callId)
  const sanitized = source.replace(/[^A-Za-z0-9_-]/g, "")
  const direct = asItemId(source) ?? asItemId(sanitized)
  if (direct !== undefined) return direct
  if (sanitized !== "") return `${FC}${sanitized.slice(0, ITEM_ID_KEEP)}`
  return `${FC}${nodeCrypto().createHash("sha1").update(source, "utf8").digest("hex").slice(0, DIGEST_KEEP)}`
}

/** The stored ids of a tool call the model sent with `rawId`. A blank id stays blank here. */
export const storedToolCallIds = (rawId: string): StoredToolCallIds => {
  const [embeddedCall, embeddedItem] = splitRawId(rawId)
  const callId = embeddedCall ?? pyStrip(rawId)
  if (callId === "") return { callId, responseItemId: FC }
  return { callId, responseItemId: itemIdFrom(callId, embeddedItem) }
}
