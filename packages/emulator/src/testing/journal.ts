/**
 * Journal helpers for Effect tests: the emulator's `Journal` service, asked with a JournalQuery.
 *
 *   yield* expectRequest({ operation: "chat.completions", text: "hello" })
 *   const [call] = yield* modelCallsOf({ operation: "runs.create" }, { withinMs: 1000 })
 */
import { Data, Duration, Effect, Schedule } from "effect"
import type { JournalQuery } from "../journal/JournalQuery.js"
import type { ModelCall } from "../journal/ModelCalls.js"
import { Journal, type JournalEntry } from "../services/Journal.js"
import { type ExpectOptions, expectationMessage, satisfies } from "./journalExpectation.js"

export type { ExpectOptions, JournalEntry, JournalQuery, ModelCall }

export class JournalExpectationFailed extends Data.TaggedError("JournalExpectationFailed")<{
  readonly message: string
  readonly query: JournalQuery
  readonly found: ReadonlyArray<JournalEntry>
}> {}

export interface NamespaceOption {
  readonly namespace?: string
}

/** The entries matching the query, oldest first (the control plane's own requests excluded). */
export const findRequests = (query: JournalQuery = {}, options: NamespaceOption = {}) =>
  Effect.flatMap(Journal, (j) => j.query(options.namespace ?? "default", query))

/** Fails with JournalExpectationFailed unless the journal has the expected matches; returns the last match. */
export const expectRequests = (query: JournalQuery, options: ExpectOptions & NamespaceOption = {}) => {
  const namespace = options.namespace ?? "default"
  const check = Effect.gen(() => checkJournal(query, namespace, options))
  const within = options.withinMs ?? 0
  if (within <= 0) return check
  return check.pipe(
    Effect.retry(Schedule.spaced(Duration.millis(10)).pipe(Schedule.upTo(Duration.millis(within)))),
    // one last look, so the failure describes the journal as it is at the deadline
    Effect.catchTag("JournalExpectationFailed", () => check)
  )
}

/** One look at the journal: the matches when they are as expected, else JournalExpectationFailed. */
function* checkJournal(query: JournalQuery, namespace: string, options: ExpectOptions) {
  const found = yield* findRequests(query, { namespace })
  if (satisfies(found.length, options.times)) return found
  const all = yield* findRequests({}, { namespace })
  return yield* new JournalExpectationFailed({ message: expectationMessage(query, namespace, options.times, found, all), query, found })
}

export const expectRequest = (query: JournalQuery, options: ExpectOptions & NamespaceOption = {}) =>
  Effect.map(expectRequests(query, options), (found) => found[found.length - 1] as JournalEntry)

/** Fails when any request matches. */
export const expectNoRequest = (query: JournalQuery, options: NamespaceOption = {}) =>
  Effect.asVoid(expectRequests(query, { ...options, times: 0 }))

/** The model calls made for the matching requests, in order. */
export const modelCallsOf = (query: JournalQuery, options: ExpectOptions & NamespaceOption = {}) =>
  Effect.map(expectRequests(query, options), (found) => found.flatMap((e) => e.modelCalls))
