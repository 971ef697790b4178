/**
 * Normalizes one side's ScenarioRun with the rules of NormalizationRule.ts: server-made ids become
 * identity-preserving tokens, noise headers leave the comparison, keepalive frames are dropped,
 * and — with a running clock — timestamps become `<time:int|float>` while their relations are
 * collected to be compared instead. With a pinned clock timestamps stay exact.
 */
import type { Exchange, WireResponse } from "../exchange/Exchange.js"
import { parseSse } from "../exchange/SseFrames.js"
import { isJsonObject, type JsonValue, jsonTypeOf, numericValue } from "../json/JsonValue.js"
import { parseJsonPreservingNumbers } from "../json/parseJsonPreservingNumbers.js"
import type { ScenarioRun } from "../runner/ScenarioRun.js"
import type { Scenario } from "../scenario/Scenario.js"
import { IdTokens } from "./IdTokens.js"
import type { NormalizedBody, NormalizedExchange, NormalizedFrame, NormalizedRun, NormalizedStep, TimeRelation } from "./NormalizedRun.js"
import { joinResponsesDeltas } from "./responsesDeltaJoin.js"
import { HEADER_RULES, type HeaderRule, RESPONSES_DELTA_JOIN, SSE_KEEPALIVE, TIME_RELATIONS, TOOL_DURATION, UNTIL_ATTEMPTS } from "./NormalizationRule.js"

export interface NormalizeOptions {
  readonly clock: "pinned" | "running"
}

interface TimeObservation {
  readonly step: number
  readonly location: string
  readonly field: string
  readonly value: number
  /** The tokenized identity of the object holding it (its run_id / id), when it has one. */
  readonly entity: string | undefined
}

const HEADER_RULE_BY_NAME = new Map<string, HeaderRule>(HEADER_RULES.map((r) => [r.header, r]))
const IDENTITY_FIELDS = ["run_id", "id", "response_id", "job_id", "session_id"]

class Normalizer {
  readonly tokens = new IdTokens()
  readonly fired = new Map<string, number>()
  readonly times: Array<TimeObservation> = []
  constructor(private readonly options: NormalizeOptions) {}

  count(rule: { readonly id: string }) {
    this.fired.set(rule.id, (this.fired.get(rule.id) ?? 0) + 1)
  }

  /** Keys are visited sorted (stable token numbering whatever the key order); output keeps the original order. */
  json(value: JsonValue, step: number, location: string): JsonValue {
    if (typeof value === "string") return this.tokens.tokenize(value)
    if (Array.isArray(value)) return (value as ReadonlyArray<JsonValue>).map((v, i) => this.json(v, step, `${location}[${i}]`))
    if (!isJsonObject(value) || jsonTypeOf(value) !== "object") return value
    const normalized = new Map<string, JsonValue>()
    const keys = Object.keys(value)
    for (const key of [...keys].sort()) normalized.set(key, this.json(value[key] as JsonValue, step, `${location}.${key}`))
    // a message's own integer id names it before the session_id it shares with its siblings
    const identityField = IDENTITY_FIELDS.find((f) => typeof normalized.get(f) === "string" || typeof normalized.get(f) === "number")
    const entity = identityField === undefined ? undefined : `${identityField}=${String(normalized.get(identityField))}`
    // a tool's run time is the machine's, not the server's behaviour
    if (normalized.get("event") === TOOL_DURATION.event && numericValue(value["duration"] as JsonValue) !== undefined) {
      this.count(TOOL_DURATION)
      normalized.set("duration", `<duration:${jsonTypeOf(value["duration"] as JsonValue)}>`)
    }
    if (this.options.clock === "running") {
      for (const key of keys) {
        const raw = value[key] as JsonValue
        if (typeof raw === "string" && TIME_RELATIONS.iso.test(raw) && Number.isFinite(Date.parse(raw))) {
          this.count(TIME_RELATIONS)
          this.times.push({ step, location: `${location}.${key}`, field: key, value: Date.parse(raw) / 1000, entity })
          normalized.set(key, "<time:iso>")
          continue
        }
        const n = numericValue(raw)
        if (!TIME_RELATIONS.field.test(key) || n === undefined || !TIME_RELATIONS.plausible(n)) continue
        this.count(TIME_RELATIONS)
        this.times.push({ step, location: `${location}.${key}`, field: key, value: n, entity })
        normalized.set(key, `<time:${jsonTypeOf(raw)}>`)
      }
    }
    return Object.fromEntries(keys.map((k) => [k, normalized.get(k) as JsonValue]))
  }

  body(res: WireResponse, step: number, location: string): NormalizedBody {
    const body = res.body
    switch (body.kind) {
      case "empty":
        return body
      case "text":
        return { kind: "text", text: this.tokens.tokenize(body.text) }
      case "json":
        try {
          return { kind: "json", value: this.json(parseJsonPreservingNumbers(body.text), step, `${location}.body`) }
        } catch {
          return { kind: "invalid-json", text: this.tokens.tokenize(body.text) }
        }
      case "sse": {
        const frames: Array<NormalizedFrame> = []
        for (const frame of parseSse(body.text)) {
          if (frame.comment === SSE_KEEPALIVE.comment && frame.data === undefined) {
            this.count(SSE_KEEPALIVE)
            continue
          }
          let data: JsonValue | undefined
          if (frame.data !== undefined) {
            try {
              data = this.json(parseJsonPreservingNumbers(frame.data), step, `${location}.frames[${frames.length}].data`)
            } catch {
              data = this.tokens.tokenize(frame.data)
            }
          }
          frames.push({
            ...(frame.event !== undefined ? { event: frame.event } : {}),
            ...(frame.id !== undefined ? { id: this.tokens.tokenize(frame.id) } : {}),
            ...(frame.retry !== undefined ? { retry: frame.retry } : {}),
            ...(frame.comment !== undefined ? { comment: frame.comment } : {}),
            ...(data !== undefined ? { data } : {})
          })
        }
        return { kind: "sse", frames: this.joinDeltas(frames), complete: body.complete, ...(body.stoppedBy !== undefined ? { stoppedBy: body.stoppedBy } : {}) }
      }
    }
  }

  /** RESPONSES_DELTA_JOIN (responsesDeltaJoin.ts), counted once per join. */
  joinDeltas(frames: ReadonlyArray<NormalizedFrame>): Array<NormalizedFrame> {
    const { frames: joined, joined: times } = joinResponsesDeltas(frames)
    for (let i = 0; i < times; i++) this.count(RESPONSES_DELTA_JOIN)
    return joined
  }

  exchange(ex: Exchange, step: number, location: string): NormalizedExchange {
    const req = ex.request
    let reqBody: JsonValue | undefined
    if (req.body !== undefined) {
      try {
        // what the client sent, the same bytes on both sides: strict JSON, as recorded evidence (the fuzz run's) normalized it
        reqBody = this.json(parseJsonPreservingNumbers(req.body, { pythonNonFinite: false }), step, `${location}.request.body`)
      } catch {
        reqBody = { $raw: this.tokens.tokenize(req.body) }
      }
    }
    const request = {
      method: req.method,
      path: this.tokens.tokenize(req.path),
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, this.tokens.tokenize(v)])),
      auth: req.auth,
      ...(reqBody !== undefined ? { body: reqBody } : {})
    }
    const res = ex.response
    if (res === undefined) return { request, ...(ex.transportError !== undefined ? { transportError: ex.transportError } : {}) }
    const headers: Record<string, string> = {}
    for (const [name, value] of res.headers) {
      const lower = name.toLowerCase()
      const rule = HEADER_RULE_BY_NAME.get(lower)
      if (rule !== undefined) {
        this.count(rule)
        continue
      }
      headers[lower] = this.tokens.tokenize(value)
    }
    const sortedHeaders = Object.fromEntries(Object.keys(headers).sort().map((k) => [k, headers[k] as string]))
    return {
      request,
      response: { status: res.status, headers: sortedHeaders, body: this.body(res, step, `${location}.response`), ...(res.head !== undefined ? { head: res.head } : {}) }
    }
  }
}

/** Relations between the timestamps one side showed; ids are built from structure only, so both sides' facts line up. */
const timeRelations = (times: ReadonlyArray<TimeObservation>, scenario: Scenario): Array<TimeRelation> => {
  const out: Array<TimeRelation> = []
  // created ≤ updated inside one object
  const byObject = new Map<string, Map<string, number>>()
  for (const t of times) {
    const object = t.location.slice(0, t.location.length - t.field.length - 1)
    const fields = byObject.get(object) ?? new Map<string, number>()
    fields.set(t.field, t.value)
    byObject.set(object, fields)
  }
  for (const [object, fields] of byObject) {
    const created = fields.get("created_at") ?? fields.get("created")
    if (created === undefined) continue
    for (const [field, value] of fields) {
      if (field === "created_at" || field === "created") continue
      out.push({ id: `${object}: created ≤ ${field}`, holds: created <= value })
    }
  }
  // one entity's timestamps never go backwards from step to step (its readings of the clock: a
  // job's next_run_at moves back when its schedule changes)
  const last = new Map<string, TimeObservation>()
  for (const t of times) {
    if (t.entity === undefined || !isClockReading(t)) continue
    const key = `${t.entity}.${t.field}`
    const before = last.get(key)
    if (before !== undefined && before.step !== t.step) {
      out.push({ id: `${t.location}: ${t.field} of ${t.entity} ≥ its value at step ${before.step}`, holds: t.value >= before.value })
    }
    last.set(key, t)
  }
  // events of one stream carry non-decreasing timestamps
  const byExchange = new Map<string, Array<TimeObservation>>()
  for (const t of times) {
    const frame = /^(steps\[\d+\]\.exchanges\[\d+\])\.response\.frames\[\d+\]/.exec(t.location)
    if (frame === null) continue
    const list = byExchange.get(frame[1] as string) ?? []
    list.push(t)
    byExchange.set(frame[1] as string, list)
  }
  for (const [exchange, list] of byExchange) {
    const monotone = list.every((t, i) => i === 0 || t.value >= (list[i - 1] as TimeObservation).value)
    out.push({ id: `${exchange}: SSE frame timestamps non-decreasing`, holds: monotone })
  }
  // a clock jump shows: timestamps made after `advance: X` are at least X later than any made
  // before it — both on one timeline, between the clock's last set or backward move and its next
  // (across one, how far apart the timelines sit depends on how long each side took to play the
  // steps between, which is not behaviour; seed 26003 position 899 was such a case)
  const resets = scenario.steps.flatMap((step, index) =>
    "clock" in step && ("set" in step.clock || ("advance" in step.clock && step.clock.advance <= 0)) ? [index] : []
  )
  scenario.steps.forEach((step, index) => {
    if (!("clock" in step) || !("advance" in step.clock) || step.clock.advance <= 0) return
    const from = Math.max(-1, ...resets.filter((r) => r < index))
    const to = Math.min(scenario.steps.length, ...resets.filter((r) => r > index))
    // only readings of the clock new in their window count: a value already read before it (a run
    // created earlier, read again) was made on the earlier timeline
    const readBy = (last: number) => new Set(times.filter((t) => t.step <= last).map((t) => t.value))
    const old = readBy(from)
    const before = times.filter((t) => t.step > from && t.step < index && isClockReading(t) && !old.has(t.value)).map((t) => t.value)
    const seen = readBy(index)
    const after = times.filter((t) => t.step > index && t.step < to && isClockReading(t) && !seen.has(t.value)).map((t) => t.value)
    if (before.length === 0 || after.length === 0) return
    const jump = (step.clock as { advance: number }).advance
    // floored: an int timestamp (int(time.time()), /v1/models' `created`) made X s after a float one
    // can read up to 1 s less than it + X, by how soon it came; the real gateway, ms after, does too
    const newestBefore = Math.floor(Math.max(...before) + jump * 0.999)
    out.push({ id: `step ${index}: newest timestamp after advance ${jump}s ≥ newest before + ${jump}s`, holds: Math.max(...after) >= newestBefore })
  })
  // a frozen clock shows: timestamps made while it stands (between clock steps) are within 1 s of
  // each other, however long the steps took (the real gateway freezes at whole seconds)
  let frozenFrom: number | undefined
  scenario.steps.forEach((step, index) => {
    if (!("clock" in step)) return
    if (frozenFrom !== undefined) frozenWindow(out, times, frozenFrom, index)
    frozenFrom = "freeze" in step.clock ? (step.clock.freeze ? index : undefined) : frozenFrom !== undefined ? index : undefined
  })
  if (frozenFrom !== undefined) frozenWindow(out, times, frozenFrom, scenario.steps.length)
  return out
}

/**
 * A timestamp that records when something happened. A scheduled time (a job's next_run_at) lies
 * ahead of the clock by its schedule: an interval job's next run, made just before a jump, can
 * sit past every reading made just after it (flaky on the emulator against itself, 2 of 24 plays),
 * and a new schedule can move it back by less than the clock moved (an hourly job at 09:00:00.4
 * made a daily 09:00 one: back on the real gateway, level on an emulator that took no time).
 */
const isClockReading = (t: TimeObservation): boolean => !t.field.startsWith("next_")

const frozenWindow = (out: Array<TimeRelation>, times: ReadonlyArray<TimeObservation>, from: number, to: number) => {
  const values = times.filter((t) => t.step > from && t.step < to && isClockReading(t)).map((t) => t.value)
  if (values.length < 2) return
  out.push({ id: `steps ${from + 1}–${to - 1}: timestamps made while the clock is frozen are within 1 s of each other`, holds: Math.max(...values) - Math.min(...values) < 1 })
}

export const normalizeRun = (run: ScenarioRun, scenario: Scenario, options: NormalizeOptions): NormalizedRun => {
  const n = new Normalizer(options)
  const steps: Array<NormalizedStep> = run.steps.map((s) => ({
    index: s.index,
    kind: s.kind,
    ...(s.note !== undefined ? { note: s.note } : {}),
    exchanges: s.exchanges.map((ex, i) => n.exchange(ex, s.index, `steps[${s.index}].exchanges[${i}]`)),
    ...(s.settled !== undefined ? { settled: s.settled } : {}),
    ...(s.error !== undefined ? { error: n.tokens.tokenize(s.error) } : {})
  }))
  if (run.steps.some((s) => s.attempts !== undefined)) n.count(UNTIL_ATTEMPTS)
  const fired = new Map([...n.fired, ...n.tokens.fired])
  return { steps, relations: options.clock === "running" ? timeRelations(n.times, scenario) : [], fired }
}
