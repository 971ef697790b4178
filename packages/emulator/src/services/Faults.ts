/**
 * Injected failures, per namespace: an answer with a chosen status and envelope, added latency, a
 * dropped response (the connection closes with nothing sent), or an SSE stream cut after N frames.
 * A fault is one-shot unless `times` says more, or `sticky` keeps it until cleared.
 */
import { Effect, Layer, Schema } from "effect"

// Only what a socket can send: a rule that arms must not turn the next request into a crash.
const HttpStatus = Schema.Int.pipe(Schema.between(200, 599))
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
const HeaderValue = Schema.String.pipe(Schema.pattern(/^[\t\x20-\x7e\x80-\xff]*$/))
const Count = Schema.Int.pipe(Schema.nonNegative())

export const FaultRule = Schema.Struct({
  /** Route id (e.g. "runs.create"); any route when absent. */
  route: Schema.optional(Schema.String),
  method: Schema.optional(Schema.String),
  /** Exact request path; any path when absent. */
  path: Schema.optional(Schema.String),
  status: Schema.optional(HttpStatus),
  body: Schema.optional(Schema.Unknown),
  headers: Schema.optional(
    Schema.Record({ key: Schema.String, value: HeaderValue }).pipe(
      Schema.filter((h) => Object.keys(h).every((k) => HEADER_NAME.test(k)) || "header names must be HTTP tokens")
    )
  ),
  latencyMs: Schema.optional(Schema.Number.pipe(Schema.between(0, 600_000))),
  drop: Schema.optional(Schema.Boolean),
  disconnectAfterFrames: Schema.optional(Count),
  times: Schema.optional(Count),
  sticky: Schema.optional(Schema.Boolean)
})
export type FaultRule = typeof FaultRule.Type

export interface FaultMatch {
  readonly route: string | null
  readonly method: string
  readonly path: string
}

interface Armed {
  readonly rule: FaultRule
  remaining: number
}

export interface FaultsShape {
  readonly add: (namespace: string, rule: FaultRule) => Effect.Effect<void>
  readonly clear: (namespace: string) => Effect.Effect<void>
  readonly list: (namespace: string) => Effect.Effect<ReadonlyArray<FaultRule>>
  /** The first armed rule matching this request, consumed once (unless sticky). */
  readonly take: (namespace: string, match: FaultMatch) => FaultRule | undefined
}

/**
 * An Effect.Tag: a program drives the faults as Effects (`Faults.add(namespace, rule)`), the same
 * service the admin plane's `/__admin/faults` reaches. Provide another implementation to replace it.
 */
export class Faults extends Effect.Tag("hermetic/Faults")<Faults, FaultsShape>() {}

const matches = (rule: FaultRule, m: FaultMatch): boolean =>
  (rule.route === undefined || rule.route === m.route) &&
  (rule.method === undefined || rule.method.toUpperCase() === m.method) &&
  (rule.path === undefined || rule.path === m.path)

/** No faults until some are added over the admin plane or the service. */
export const makeFaults = (): FaultsShape => {
  const spaces = new Map<string, Array<Armed>>()
  return {
    add: (ns, rule) =>
      Effect.sync(() => {
        const list = spaces.get(ns) ?? []
        list.push({ rule, remaining: rule.sticky === true ? Infinity : Math.max(1, rule.times ?? 1) })
        spaces.set(ns, list)
      }),
    clear: (ns) => Effect.sync(() => void spaces.delete(ns)),
    list: (ns) => Effect.sync(() => (spaces.get(ns) ?? []).map((a) => a.rule)),
    take: (ns, m) => {
      const list = spaces.get(ns)
      if (list === undefined || list.length === 0) return undefined
      const armed = list.find((a) => matches(a.rule, m))
      if (armed === undefined) return undefined
      armed.remaining -= 1
      if (armed.remaining <= 0) list.splice(list.indexOf(armed), 1)
      return armed.rule
    }
  }
}

/** The default Faults: none armed. */
export const FaultsLive = Layer.sync(Faults, makeFaults)
