/**
 * Which time-driven mechanism each played clock step exercised (docs/pins/time.md), counted from
 * the evidence's played steps, never from what a generator meant: a clock step exercises a
 * mechanism when, at that point of the play, the real gateway had answered the requests that
 * create its subject (a run, a keyed chat, a job, a waiting approval) and a later step reads that
 * subject again. `timestamps` is any request after the move; `stop during a model call` is a run
 * accepted and not yet settled before the move and stopped after it (the agent sees a stop at the
 * end of a wait slice on loop time).
 */
import type { ScenarioEvidence, StepEvidence } from "./Evidence.js"

export const TIME_MECHANISMS = ["run status TTL (sweep)", "run buffer TTL (sweep)", "chat idempotency window", "cron ticker", "approval wait", "stop during a model call", "timestamps"] as const
export type TimeMechanism = (typeof TIME_MECHANISMS)[number]

export const CLOCK_OPERATIONS = ["advance forward", "advance backward", "set past", "set future", "freeze", "unfreeze"] as const
export type ClockOperation = (typeof CLOCK_OPERATIONS)[number]

export type MechanismCounts = Readonly<Record<ClockOperation, Readonly<Record<TimeMechanism, number>>>>

interface RequestView {
  readonly method: string
  readonly path: string
  readonly key: string | undefined
  /** Statuses and bodies the real gateway answered this step with. */
  readonly statuses: ReadonlyArray<number>
  readonly bodies: ReadonlyArray<unknown>
}

const asRecord = (v: unknown): Record<string, unknown> | undefined => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined)

const requestOf = (step: StepEvidence): RequestView | undefined => {
  const request = asRecord(asRecord(step.step)?.["request"])
  if (request === undefined) return undefined
  const headers = asRecord(request["headers"]) ?? {}
  const key = Object.entries(headers).find(([k]) => k.toLowerCase() === "idempotency-key")?.[1]
  const exchanges = step.reference?.exchanges ?? []
  return {
    method: String(request["method"] ?? ""),
    path: String(request["path"] ?? ""),
    key: typeof key === "string" ? key : undefined,
    statuses: exchanges.flatMap((x) => (x.response === undefined ? [] : [x.response.status])),
    bodies: exchanges.flatMap((x) => (x.response?.body.kind === "json" ? [x.response.body.value] : []))
  }
}

/** The clock operation of a step, judged against the play's start (`playedAt`, epoch seconds). */
const clockOperationOf = (step: StepEvidence, playedAt: number): ClockOperation | undefined => {
  const clock = asRecord(asRecord(step.step)?.["clock"])
  if (clock === undefined) return undefined
  if (typeof clock["advance"] === "number") return clock["advance"] >= 0 ? "advance forward" : "advance backward"
  if (typeof clock["set"] === "number") return clock["set"] < playedAt ? "set past" : "set future"
  if (typeof clock["freeze"] === "boolean") return clock["freeze"] ? "freeze" : "unfreeze"
  return undefined
}

/** `/v1/runs/{r1.run_id}/events` → `r1`: the alias a path refers to. */
const aliasIn = (path: string): string | undefined => /\{([A-Za-z0-9_]+)\./.exec(path)?.[1]

const runAliasOf = (path: string) => (path.startsWith("/v1/runs/") ? aliasIn(path) : undefined)
const jobAliasOf = (path: string) => (path.startsWith("/api/jobs/") ? aliasIn(path) : undefined)

const statusIn = (body: unknown): string | undefined => {
  const s = asRecord(body)?.["status"]
  return typeof s === "string" ? s : undefined
}

/** What exists just before step `i` and is read after it, per mechanism. */
const exercisedAt = (steps: ReadonlyArray<StepEvidence>, i: number): ReadonlySet<TimeMechanism> => {
  const before = steps.slice(0, i).map((s) => ({ step: s, request: requestOf(s) }))
  const after = steps.slice(i + 1).map(requestOf).filter((r): r is RequestView => r !== undefined)
  const found = new Set<TimeMechanism>()
  if (after.length > 0) found.add("timestamps")
  // runs the gateway accepted, by the alias the scenario named them with
  const runs = new Set(before.flatMap(({ step, request }) => {
    const as = asRecord(step.step)?.["as"]
    return request !== undefined && request.method === "POST" && request.path === "/v1/runs" && request.statuses.includes(202) && typeof as === "string" ? [as] : []
  }))
  const settled = new Set(before.flatMap(({ request }) => {
    const alias = request === undefined ? undefined : runAliasOf(request.path)
    return alias !== undefined && request?.bodies.some((b) => ["completed", "failed", "cancelled"].includes(statusIn(b) ?? "")) ? [alias] : []
  }))
  const waiting = new Set<string>()
  for (const { request } of before) {
    const alias = request === undefined ? undefined : runAliasOf(request.path)
    if (alias === undefined || request === undefined) continue
    if (request.bodies.some((b) => statusIn(b) === "waiting_for_approval")) waiting.add(alias)
    if (request.path.endsWith("/approval") && request.method === "POST") waiting.delete(alias)
    if (request.bodies.some((b) => ["completed", "failed", "cancelled"].includes(statusIn(b) ?? ""))) waiting.delete(alias)
  }
  const readLater = (alias: string, events: boolean) =>
    after.some((r) => runAliasOf(r.path) === alias && r.path.endsWith("/events") === events)
  if ([...settled].some((a) => runs.has(a) && readLater(a, false))) found.add("run status TTL (sweep)")
  if ([...runs].some((a) => readLater(a, true))) found.add("run buffer TTL (sweep)")
  if ([...waiting].some((a) => after.some((r) => runAliasOf(r.path) === a))) found.add("approval wait")
  if ([...runs].some((a) => !settled.has(a) && after.some((r) => r.method === "POST" && runAliasOf(r.path) === a && r.path.endsWith("/stop")))) {
    found.add("stop during a model call")
  }
  const keys = new Set(before.flatMap(({ request }) => (request?.key !== undefined && request.path === "/v1/chat/completions" && request.statuses.includes(200) ? [request.key] : [])))
  if (after.some((r) => r.key !== undefined && keys.has(r.key) && r.path === "/v1/chat/completions")) found.add("chat idempotency window")
  const jobs = new Set<string>()
  for (const { step, request } of before) {
    const as = asRecord(step.step)?.["as"]
    if (request?.method === "POST" && request.path === "/api/jobs" && request.statuses.includes(200) && typeof as === "string") jobs.add(as)
    const alias = request === undefined ? undefined : jobAliasOf(request.path)
    if (alias !== undefined && request?.method === "DELETE") jobs.delete(alias)
  }
  if ([...jobs].some((a) => after.some((r) => jobAliasOf(r.path) === a || r.path === "/api/jobs"))) found.add("cron ticker")
  return found
}

const emptyCounts = (): Record<ClockOperation, Record<TimeMechanism, number>> =>
  Object.fromEntries(CLOCK_OPERATIONS.map((op) => [op, Object.fromEntries(TIME_MECHANISMS.map((m) => [m, 0]))])) as Record<ClockOperation, Record<TimeMechanism, number>>

/** Counts over every scenario that played (errors left out), `playedAt` the comparison's start. */
export const countTimeMechanisms = (scenarios: ReadonlyArray<ScenarioEvidence>, playedAt: number): MechanismCounts => {
  const counts = emptyCounts()
  for (const sc of scenarios) {
    if (sc.verdict === "error") continue
    sc.steps.forEach((step, i) => {
      const op = clockOperationOf(step, playedAt)
      if (op === undefined) return
      for (const mechanism of exercisedAt(sc.steps, i)) counts[op][mechanism] += 1
    })
  }
  return counts
}

/** The REPORT.md section: clock operations down, mechanisms across. */
export const renderTimeMechanisms = (counts: MechanismCounts): ReadonlyArray<string> => [
  "## Time mechanisms",
  "",
  "Played clock steps that exercised each time-driven mechanism (docs/pins/time.md): its subject existed on the real gateway before the move and was read after it.",
  "",
  `| clock operation | ${TIME_MECHANISMS.join(" | ")} |`,
  `| --- | ${TIME_MECHANISMS.map(() => "---:").join(" | ")} |`,
  ...CLOCK_OPERATIONS.map((op) => `| ${op} | ${TIME_MECHANISMS.map((m) => counts[op][m]).join(" | ")} |`)
]
