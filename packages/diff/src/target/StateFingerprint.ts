/**
 * What a shared gateway holds between scenarios, read from outside: its sessions (GET
 * /api/sessions with children), its jobs (GET /api/jobs, disabled ones too), and its fake model's
 * Script queue and the model calls still waiting or in flight (the fake model's /__admin/state
 * and journal). 0.19.0 lists no runs; a run still working shows as a model call in flight.
 *
 * `oracle compare --shared` takes it when a scenario begins and again when it ends: a scenario
 * that leaves the gateway in another state than it found it would hand that state to the next
 * scenario (and to the second play noise is learned from), so the difference is the play's error.
 */
import type { Gateway } from "@hermetic/oracle-runner"
import { Effect, Schema } from "effect"

const Listed = Schema.Struct({ id: Schema.String, message_count: Schema.optional(Schema.Unknown) })
const SessionList = Schema.Struct({ data: Schema.Array(Listed) })
const JobList = Schema.Struct({ jobs: Schema.Array(Schema.Struct({ id: Schema.String, state: Schema.optional(Schema.Unknown), enabled: Schema.optional(Schema.Unknown) })) })
const PlayerView = Schema.Struct({ pendingTurns: Schema.Number, repliesLeftInTurn: Schema.Number, heldCalls: Schema.Array(Schema.String) })

export interface StateFingerprint {
  /** "id (N messages)", sorted. */
  readonly sessions: ReadonlyArray<string>
  /** "id state enabled", sorted. */
  readonly jobs: ReadonlyArray<string>
  /** What is left of the fake model's Script: turns queued, replies left in the current turn. */
  readonly script: string
  /** Model calls held or not yet answered, by hold name or "pending". */
  readonly calls: ReadonlyArray<string>
}

const getJson = <A, I>(url: string, apiKey: string | null, schema: Schema.Schema<A, I>): Effect.Effect<A, Error> =>
  Effect.tryPromise({
    try: async () => {
      const r = await fetch(url, { headers: { connection: "close", ...(apiKey !== null ? { authorization: `Bearer ${apiKey}` } : {}) }, signal: AbortSignal.timeout(15_000) })
      if (r.status !== 200) throw new Error(`GET ${url} answered ${r.status}`)
      return (await r.json()) as unknown
    },
    catch: (e) => (e instanceof Error ? e : new Error(String(e)))
  }).pipe(Effect.flatMap((body) => Effect.mapError(Schema.decodeUnknown(schema)(body), (e) => new Error(`GET ${url}: ${e.message}`))))

export const stateFingerprint = (gw: Gateway): Effect.Effect<StateFingerprint, Error> =>
  Effect.gen(function*() {
    const [sessions, jobs, view] = yield* Effect.all([
      getJson(`${gw.baseUrl}/api/sessions?limit=1000&include_children=true`, gw.apiKey, SessionList),
      getJson(`${gw.baseUrl}/api/jobs?include_disabled=true`, gw.apiKey, JobList),
      getJson(`${gw.fakeModelUrl}/__admin/state`, null, PlayerView)
    ])
    return {
      sessions: sessions.data.map((s) => `${s.id} (${String(s.message_count ?? "?")} messages)`).sort(),
      jobs: jobs.jobs.map((j) => `${j.id} ${String(j.state ?? "")} ${String(j.enabled ?? "")}`.trim()).sort(),
      script: `${view.pendingTurns} turn(s) queued, ${view.repliesLeftInTurn} reply(ies) left in the current one`,
      calls: [...view.heldCalls.map((h) => `held on ${h}`), ...gw.journal().filter((e) => e.outcome === "pending").map(() => "pending")].sort()
    }
  })

const listDelta = (what: string, before: ReadonlyArray<string>, after: ReadonlyArray<string>): Array<string> => {
  const added = after.filter((x) => !before.includes(x))
  const gone = before.filter((x) => !after.includes(x))
  return [...(added.length > 0 ? [`${what} added: ${added.join(", ")}`] : []), ...(gone.length > 0 ? [`${what} gone: ${gone.join(", ")}`] : [])]
}

/** What changed, one clause each; empty when the two are the same. */
export const fingerprintDifference = (before: StateFingerprint, after: StateFingerprint): ReadonlyArray<string> => [
  ...listDelta("sessions", before.sessions, after.sessions),
  ...listDelta("jobs", before.jobs, after.jobs),
  ...(before.script !== after.script ? [`fake model Script: ${before.script} → ${after.script}`] : []),
  ...listDelta("model calls", before.calls, after.calls)
]
