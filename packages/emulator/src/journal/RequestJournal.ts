/**
 * A request as the journal sees it, around the app's answer: an entry opened as it arrives, its
 * body attached only if the app reads it, the model calls of the agent turns it starts (forked
 * ones too, as a run's), and the entry closed with the answer's status, operation and fault.
 * Nothing here changes the answer: the journal is read through the control plane only.
 */
import { Effect } from "effect"
import { type BodyReader, type EmuRequestHead, type EmuResponse, sameHeaderName } from "../http/Exchange.js"
import { mapNow } from "../http/Immediate.js"
import type { EmuClockShape } from "../services/Clock.js"
import type { JournalShape } from "../services/Journal.js"
import { CurrentModelCallObserver } from "./ModelCalls.js"

/** The app's answer as the journal closes an entry with it: the response and the route that answered it, then the fault that fired. */
export type JournaledAnswer = readonly [readonly [EmuResponse, string | null], string | null]

/** Journals each request the app answers (`admin`: a control-plane one, kept without its body). */
export const requestJournal = (journal: JournalShape, clock: EmuClockShape) =>
<R>(
  req: EmuRequestHead,
  namespace: string,
  admin: boolean,
  body: BodyReader,
  answer: (body: BodyReader) => Effect.Effect<JournaledAnswer, never, R>
): Effect.Effect<EmuResponse, never, R> => {
  const started = performance.now()
  const now = () => clock.now(namespace)
  const entry = journal.open({ now, namespace, method: req.method, path: req.path, headers: req.headers, admin })
  const journaled = mapNow(body, (read) => {
    journal.attachBody(entry.id, read.bytes)
    return read
  })
  const answered = answer(journaled)
  // with no observer (bodies off) the ref keeps its empty default and the answer stays an Exit (http/Immediate.ts)
  const observed = entry.observer === undefined ? answered : Effect.locally(answered, CurrentModelCallObserver, entry.observer)
  return mapNow(observed, ([[response, routeId], fault]) => {
    journal.close(entry.id, {
      operation: routeId,
      status: response.status,
      durationMs: performance.now() - started,
      fault,
      responseSession: response.headers.find(([name]) => sameHeaderName(name, "x-hermes-session-id"))?.[1] ?? null
    })
    return response
  })
}
