/**
 * What the journal helpers (Effect and Promise) share: counting matches against an expectation
 * and the failure message, which says what was asked for and what the journal holds instead.
 */
import { describeQuery, type JournalQuery } from "../journal/JournalQuery.js"
import type { JournalEntry } from "../services/Journal.js"

export interface ExpectOptions {
  /** Exactly this many matches (default: at least one). */
  readonly times?: number
  /** Wait up to this long for the matches to appear (agent turns of runs finish after the 202). */
  readonly withinMs?: number
}

export const satisfies = (found: number, times: number | undefined): boolean =>
  times === undefined ? found > 0 : found === times

const line = (e: JournalEntry): string =>
  `  #${e.id} ${e.method} ${e.path}${e.operation === null ? "" : ` (${e.operation})`} → ${e.status ?? "pending"}` +
  (e.session === null ? "" : ` session ${e.session}`) +
  (e.modelCalls.length === 0 ? "" : `, ${e.modelCalls.length} model call(s)`)

export const expectationMessage = (
  query: JournalQuery,
  namespace: string,
  times: number | undefined,
  found: ReadonlyArray<JournalEntry>,
  all: ReadonlyArray<JournalEntry>
): string => {
  const wanted = times === undefined ? "at least one request" : `${times} request(s)`
  const seen = all
  const shown = seen.slice(-20)
  const body = query.text !== undefined && seen.length > 0 && seen.every((e) => e.request === undefined)
    ? "\n(the journal keeps no bodies in this namespace: turn them on with {journal: {bodies: true}} or POST /__admin/journal {\"bodies\": true})"
    : ""
  return (
    `expected ${wanted} matching ${describeQuery(query)} in namespace "${namespace}", found ${found.length}.` +
    (seen.length === 0 ? "\nThe journal holds no requests." : `\nThe journal holds ${seen.length} request(s)${seen.length > shown.length ? ` (last ${shown.length})` : ""}:\n${shown.map(line).join("\n")}`) +
    body
  )
}
