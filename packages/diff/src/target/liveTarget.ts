/**
 * A Target over a LiveDriver: the shared logic of every target that answers live (emulator in
 * process, emulator over HTTP, real gateway). Polls `until` at the driver's pace, reads SSE
 * bodies with a bound, and keeps the API key out of everything it records.
 */
import { Duration, Effect } from "effect"
import type { Exchange, WireRequest } from "../exchange/Exchange.js"
import { readResponse } from "../exchange/readResponse.js"
import { isJsonObject } from "../json/JsonValue.js"
import { parseJsonPreservingNumbers } from "../json/parseJsonPreservingNumbers.js"
import { describeGeneratedBody, generatedBodyInit } from "../scenario/generatedBody.js"
import { type HttpRequestSpec, type Scenario, type Step, TERMINAL_RUN_STATUSES, type Until } from "../scenario/Scenario.js"
import { modelCallsExchange } from "../modelCalls/modelCallsExchange.js"
import { type LiveDriver, WRONG_API_KEY } from "./LiveDriver.js"
import { type StepOutcome, type Target, TargetError, type TargetInfo } from "./Target.js"

export const DEFAULT_UNTIL_DEADLINE_MS = 10_000
export const DEFAULT_USER_AGENT = "hermetic-oracle/1"

/** fetch's "fetch failed" hides the reason in `cause` (ECONNRESET, "other side closed", …): show it. */
const describeError = (e: unknown): string => {
  if (!(e instanceof Error)) return String(e)
  const cause = e.cause instanceof Error ? `${(e.cause as Error & { code?: string }).code ?? ""} ${e.cause.message}`.trim() : undefined
  return cause === undefined ? e.message : `${e.message} (${cause})`
}

/** fetch failed because the connection was reset or closed under it, before any answer came. */
const isConnectionReset = (e: Error): boolean => {
  const code = (e.cause as { code?: string } | undefined)?.code
  return code === "ECONNRESET" || code === "EPIPE" || code === "UND_ERR_SOCKET"
}

/**
 * Requests the real gateway's side may send again after a reset: a GET. aiohttp closes an idle
 * kept-alive connection when its timer fires, and a clock jump fires it at once, so a reused
 * connection can be closed under the next request (seen live: ECONNRESET on GET /v1/capabilities
 * after a set to the future). A GET that did reach a handler and lost its answer is no false pass
 * either: an events stream read twice shows as a divergence.
 */
const resetIsHarmless = (spec: HttpRequestSpec): boolean => spec.method.toUpperCase() === "GET"

/** The request as the scenario describes it (what gets recorded), and the init actually sent. */
export const buildRequest = (spec: HttpRequestSpec, driver: Pick<LiveDriver, "apiKey" | "hiddenHeaders">): { wire: WireRequest; init: RequestInit } => {
  // every target sees the same User-Agent (servers echo it, e.g. a cron job's origin); fetch over a
  // socket would otherwise send "node" and the in-process fetch nothing
  const headers: Record<string, string> = { "user-agent": DEFAULT_USER_AGENT }
  for (const [k, v] of Object.entries(spec.headers ?? {})) headers[k.toLowerCase()] = v
  let body: string | undefined
  let sentBody: { body: BodyInit; duplex?: "half" } | undefined
  if (spec.generatedBody !== undefined) {
    body = describeGeneratedBody(spec.generatedBody)
    sentBody = generatedBodyInit(spec.generatedBody)
  } else if (spec.rawBody !== undefined) body = spec.rawBody
  else if (spec.body !== undefined) {
    body = JSON.stringify(spec.body)
    headers["content-type"] ??= "application/json"
  }
  const auth = spec.auth ?? "key"
  const sent: Record<string, string> = { ...headers, ...driver.hiddenHeaders() }
  if (auth === "key") sent["authorization"] = `Bearer ${driver.apiKey}`
  if (auth === "wrong") sent["authorization"] = `Bearer ${WRONG_API_KEY}`
  const method = spec.method.toUpperCase()
  return {
    wire: { method, path: spec.path, headers, auth, ...(body !== undefined ? { body } : {}) },
    init: { method, headers: sent, ...(sentBody ?? (body !== undefined ? { body } : {})) }
  }
}

/** The value at a dotted path of a JSON body (undefined where the path leads nowhere). */
const fieldAt = (value: unknown, path: string): unknown =>
  path.split(".").reduce<unknown>((v, key) => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>)[key] : undefined), value)

const settledBy = (until: Until, exchange: Exchange): boolean => {
  const res = exchange.response
  if (res === undefined) return false
  if (until.httpStatus !== undefined && until.httpStatus.includes(res.status)) return true
  if (res.body.kind !== "json") return false
  let status: unknown
  let parsed: ReturnType<typeof parseJsonPreservingNumbers>
  try {
    parsed = parseJsonPreservingNumbers(res.body.text)
    status = isJsonObject(parsed) ? parsed["status"] : undefined
  } catch {
    return false
  }
  if (until.field !== undefined && typeof fieldAt(parsed, until.field.path) === "string" && until.field.in.includes(fieldAt(parsed, until.field.path) as string)) return true
  if (typeof status !== "string") return false
  if (until.status !== undefined && until.status.includes(status)) return true
  return until.terminal === true && TERMINAL_RUN_STATUSES.includes(status)
}

export const liveTarget = (info: TargetInfo, driver: LiveDriver): Target => {
  /** What `what` failed with, as the step's TargetError. */
  const attempt = <A>(what: string, effect: Effect.Effect<A, Error>) =>
    Effect.mapError(effect, (e) => new TargetError({ target: info.kind, reason: `${what}: ${describeError(e)}` }))
  const pause = Effect.suspend(() => Effect.sleep(Duration.millis(driver.pollIntervalMs)))

  const send = (spec: HttpRequestSpec): Effect.Effect<Exchange, Error> => {
    const { wire } = buildRequest(spec, driver)
    const limits = { deadlineMs: driver.sseDeadlineMs, ...(spec.maxFrames !== undefined ? { maxFrames: spec.maxFrames } : {}) }
    // each try builds its request again (a body may be a stream, read once)
    const fetched = Effect.suspend(() => driver.fetch(spec.path, buildRequest(spec, driver).init))
    const tries = info.real && resetIsHarmless(spec) ? Effect.retry(fetched, { times: 2, while: isConnectionReset }) : fetched
    return Effect.matchEffect(tries, {
      // The real gateway going away is the oracle failing; an emulator dropping a connection is behaviour.
      onFailure: (e): Effect.Effect<Exchange, Error> => (info.real ? Effect.fail(e) : Effect.succeed({ request: wire, transportError: describeError(e) })),
      // reading the body is the other half of the HTTP edge
      onSuccess: (res) =>
        Effect.tryPromise({ try: () => readResponse(res, limits), catch: (e) => (e instanceof Error ? e : new Error(String(e))) }).pipe(
          Effect.map((response) => ({ request: wire, response }))
        )
    })
  }

  /** Repeats `probe` at the driver's pace until it settles or the (scaled) deadline passes. */
  const poll = (deadlineMs: number, probe: Effect.Effect<{ readonly settled: boolean; readonly exchanges: ReadonlyArray<Exchange> }, Error>) =>
    Effect.suspend(() => {
      const deadline = Date.now() + deadlineMs * (driver.deadlineScale ?? 1)
      const loop = (attempts: number): Effect.Effect<StepOutcome, Error> =>
        Effect.flatMap(probe, ({ settled, exchanges }) =>
          settled || Date.now() >= deadline
            ? Effect.succeed({ exchanges, attempts, settled })
            : Effect.zipRight(pause, loop(attempts + 1)))
      return loop(1)
    })

  const apply = (step: Step): Effect.Effect<StepOutcome, TargetError> => {
    const none: StepOutcome = { exchanges: [] }
    if ("script" in step) return attempt("script", driver.script(step.script)).pipe(Effect.as(none))
    if ("release" in step) return attempt(`release ${step.release}`, driver.release(step.release)).pipe(Effect.as(none))
    if ("awaitHold" in step) {
      const held = Effect.map(driver.isHeld(step.awaitHold), (settled) => ({ settled, exchanges: [] }))
      return attempt(`await hold ${step.awaitHold}`, poll(step.deadlineMs ?? DEFAULT_UNTIL_DEADLINE_MS, held))
    }
    if ("clock" in step) return attempt("clock", driver.clock(step.clock)).pipe(Effect.as(none))
    if ("restart" in step) return attempt("restart", driver.restart(step.restart.crash === true)).pipe(Effect.as(none))
    if ("reset" in step) return attempt("reset", driver.reset).pipe(Effect.as(none))
    if ("drain" in step) return attempt(`drain ${String(step.drain)}`, driver.drain(step.drain)).pipe(Effect.as(none))
    if ("modelCalls" in step) {
      return attempt("model calls", Effect.map(driver.modelCalls, (calls): StepOutcome => ({ exchanges: [modelCallsExchange(calls)] })))
    }
    if ("parallel" in step) {
      return attempt("parallel requests", Effect.map(Effect.forEach(step.parallel, (p) => send(p.request), { concurrency: "unbounded" }), (exchanges) => ({ exchanges })))
    }
    const until = step.until
    const request = until === undefined
      ? Effect.map(send(step.request), (e): StepOutcome => ({ exchanges: [e] }))
      : poll(until.deadlineMs ?? DEFAULT_UNTIL_DEADLINE_MS, Effect.map(send(step.request), (e) => ({ settled: settledBy(until, e), exchanges: [e] })))
    return attempt(`${step.request.method} ${step.request.path}`, request)
  }

  const holdsOf = (scenario: Scenario): Array<string> => {
    const names = new Set<string>()
    for (const step of scenario.steps) {
      if (!("script" in step)) continue
      for (const turn of step.script.turns) for (const reply of turn.replies) if (reply.hold !== undefined) names.add(reply.hold)
    }
    return [...names]
  }

  return {
    info,
    begin: () => attempt("begin", driver.begin),
    apply,
    end: (scenario) => attempt("end", driver.end(holdsOf(scenario)))
  }
}
