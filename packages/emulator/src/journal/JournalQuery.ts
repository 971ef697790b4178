/**
 * Which journal entries a test asks about. Every field narrows; an empty query matches all.
 * The same query comes from an Effect caller or from `GET /__admin/journal?…` (each field a
 * query parameter of the same name).
 */
import { Either, Schema } from "effect"
import type { JournalEntry } from "./JournalEntry.js"

export const JournalQuery = Schema.Struct({
  /** The route's operation id, e.g. `chat.completions`, `runs.create` (see routes/RouteTable.ts); `admin` for the control plane, left out otherwise. */
  operation: Schema.optional(Schema.String),
  method: Schema.optional(Schema.String),
  /** The request path; `*` matches any run of characters (`/v1/runs/*`/events). */
  path: Schema.optional(Schema.String),
  /** The session the request named (X-Hermes-Session-Id, a sessions path, `session_id`) or was answered under. */
  session: Schema.optional(Schema.String),
  /** Text that occurs in the request body or in the messages of one of its model calls. */
  text: Schema.optional(Schema.String),
  status: Schema.optional(Schema.Number),
  /** Only entries after this id (to look at what happened since a point). */
  since: Schema.optional(Schema.Number),
  /** At most this many, the newest ones. */
  limit: Schema.optional(Schema.Number)
})
export type JournalQuery = typeof JournalQuery.Type

const NUMERIC = new Set(["status", "since", "limit"])

/** A query from URL parameters; unknown parameters are an error so a typo never matches everything. */
export const queryFromParams = (params: URLSearchParams): Either.Either<JournalQuery, string> => {
  const raw: Record<string, unknown> = {}
  for (const [k, v] of params) {
    if (!(k in JournalQuery.fields)) return Either.left(`unknown journal query parameter '${k}' (known: ${Object.keys(JournalQuery.fields).join(", ")})`)
    if (NUMERIC.has(k)) {
      if (!/^\d+$/.test(v)) return Either.left(`journal query parameter '${k}' must be a whole number, got '${v}'`)
      raw[k] = Number(v)
    } else raw[k] = v
  }
  return Either.mapLeft(Schema.decodeUnknownEither(JournalQuery)(raw), (e) => e.message)
}

const globToRegExp = (glob: string): RegExp =>
  new RegExp(`^${glob.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`)

/** Every string inside a JSON value (where `text` is looked for). */
const stringsOf = (value: unknown, out: Array<string>): Array<string> => {
  if (typeof value === "string") out.push(value)
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out)
  else if (value !== null && typeof value === "object") for (const v of Object.values(value)) stringsOf(v, out)
  return out
}

export const entryText = (entry: JournalEntry): ReadonlyArray<string> => {
  const out: Array<string> = []
  if (entry.request !== undefined) stringsOf(entry.request.body, out)
  for (const call of entry.modelCalls) stringsOf(call.messages, out)
  return out
}

export const matchesQuery = (query: JournalQuery) => {
  const path = query.path === undefined ? undefined : query.path.includes("*") ? globToRegExp(query.path) : undefined
  const method = query.method?.toUpperCase()
  return (entry: JournalEntry): boolean =>
    // the control plane's own requests only when asked for (operation=admin)
    (query.operation === undefined ? entry.operation !== "admin" : entry.operation === query.operation) &&
    (method === undefined || entry.method === method) &&
    (query.path === undefined || (path === undefined ? entry.path === query.path : path.test(entry.path))) &&
    (query.session === undefined || entry.session === query.session) &&
    (query.status === undefined || entry.status === query.status) &&
    (query.since === undefined || entry.id > query.since) &&
    (query.text === undefined || entryText(entry).some((s) => s.includes(query.text as string)))
}

/** Describes a query for messages: `POST /v1/runs (runs.create) with text "hi"`. */
export const describeQuery = (query: JournalQuery): string => {
  const parts = [
    query.method ?? "",
    query.path ?? "",
    query.operation === undefined ? "" : `(${query.operation})`,
    query.session === undefined ? "" : `in session "${query.session}"`,
    query.status === undefined ? "" : `answered ${query.status}`,
    query.text === undefined ? "" : `with text "${query.text}"`,
    query.since === undefined ? "" : `after entry ${query.since}`
  ].filter((p) => p !== "")
  return parts.length === 0 ? "any request" : parts.join(" ")
}
