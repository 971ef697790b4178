/**
 * A Target over a LiveDriver: the shared logic of every target that answers live (emulator in
 * process, emulator over HTTP, real gateway). Polls `until` at the driver's pace, reads SSE
 * bodies with a bound, and keeps the API key out of everything it records.
 */
import { Effect } from "effect"
import type { Exchange, WireRequest } from "../exchange/Exchange.js"
import { readResponse } from "../exchange/readResponse.js"
import { isJsonObject } from "../json/JsonValue.js"
import { parseJsonPreservingNumbers } from "../json/parseJsonPreservingNumbers.js"
import { describeGeneratedBody, generatedBodyInit } from "../scenario/generatedBody.js"
import { type HttpRequestSpec, type Scenario, type Step, TERMINAL_RUN_STATUSES, type Until } from "../scenario/Scenario.js"
import { type LiveDriver, WRONG_API_KEY } from "./LiveDriver.js"
import { type StepOutcome, type Target, TargetError, type TargetInfo } from "./Target.js"

export const DEFAULT_UNTIL_DEADLINE_MS = 10_000
export const DEFAULT_USER_AGENT = "hermetic-oracle/1"

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** fetch's "fetch failed" hides the reason in `cause` (ECONNRESET, "other side closed", …): show it. */
const describeError = (e: unknown): string => {
  if (!(e instanceof Error)) return String(e)
  const cause = e.cause instanceof Error ? `${(e.cause as Error & { code?: string }).code ?? ""} ${e.cause.message}`.trim() : undefined
  return cause === undefined ? e.message : `${e.message} (${cause})`
}

/** The request as the scenario describes it (what gets recorded), and the init actually sent. */
export const buildRequest = (spec: HttpRequestSpec, driver: LiveDriver): { wire: WireRequest; init: RequestInit } => {
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
  const fail = (reason: string) => new TargetError({ target: info.kind, reason })
  const attempt = <A>(what: string, run: () => Promise<A>) => Effect.tryPromise({ try: run, catch: (e) => fail(`${what}: ${describeError(e)}`) })

  const send = async (spec: HttpRequestSpec): Promise<Exchange> => {
    const { wire, init } = buildRequest(spec, driver)
    let res: Response
    try {
      res = await driver.fetch(spec.path, init)
    } catch (e) {
      // The real gateway going away is the oracle failing; an emulator dropping a connection is behaviour.
      if (info.real) throw e
      return { request: wire, transportError: describeError(e) }
    }
    const limits = { deadlineMs: driver.sseDeadlineMs, ...(spec.maxFrames !== undefined ? { maxFrames: spec.maxFrames } : {}) }
    return { request: wire, response: await readResponse(res, limits) }
  }

  const sendUntil = async (spec: HttpRequestSpec, until: Until): Promise<StepOutcome> => {
    const deadline = Date.now() + (until.deadlineMs ?? DEFAULT_UNTIL_DEADLINE_MS) * (driver.deadlineScale ?? 1)
    let attempts = 0
    for (;;) {
      const exchange = await send(spec)
      attempts++
      if (settledBy(until, exchange)) return { exchanges: [exchange], attempts, settled: true }
      if (Date.now() >= deadline) return { exchanges: [exchange], attempts, settled: false }
      await sleep(driver.pollIntervalMs)
    }
  }

  const apply = (step: Step): Effect.Effect<StepOutcome, TargetError> => {
    const none: StepOutcome = { exchanges: [] }
    if ("script" in step) return attempt("script", () => driver.script(step.script)).pipe(Effect.as(none))
    if ("release" in step) return attempt(`release ${step.release}`, () => driver.release(step.release)).pipe(Effect.as(none))
    if ("awaitHold" in step) {
      const deadline = Date.now() + (step.deadlineMs ?? DEFAULT_UNTIL_DEADLINE_MS) * (driver.deadlineScale ?? 1)
      return attempt(`await hold ${step.awaitHold}`, async () => {
        for (let attempts = 1; ; attempts++) {
          if (await driver.isHeld(step.awaitHold)) return { exchanges: [], attempts, settled: true }
          if (Date.now() >= deadline) return { exchanges: [], attempts, settled: false }
          await sleep(driver.pollIntervalMs)
        }
      })
    }
    if ("clock" in step) return attempt("clock", () => driver.clock(step.clock)).pipe(Effect.as(none))
    if ("restart" in step) return attempt("restart", () => driver.restart(step.restart.crash === true)).pipe(Effect.as(none))
    if ("reset" in step) return attempt("reset", () => driver.reset()).pipe(Effect.as(none))
    if ("drain" in step) return attempt(`drain ${String(step.drain)}`, () => driver.drain(step.drain)).pipe(Effect.as(none))
    if ("parallel" in step) {
      return attempt("parallel requests", async () => ({ exchanges: await Promise.all(step.parallel.map((p) => send(p.request))) }))
    }
    const until = step.until
    return attempt(`${step.request.method} ${step.request.path}`, () =>
      until === undefined ? send(step.request).then((e) => ({ exchanges: [e] })) : sendUntil(step.request, until)
    )
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
    begin: () => attempt("begin", () => driver.begin()),
    apply,
    end: (scenario) => attempt("end", () => driver.end(holdsOf(scenario)))
  }
}
