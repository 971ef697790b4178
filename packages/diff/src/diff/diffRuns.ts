/**
 * Compares two normalized runs of the same Scenario step by step: the reference side (real
 * gateway or its cassette) against the candidate (emulator). Produces typed differences; whether
 * a difference is noise or a registered divergence is decided afterwards (classify.ts).
 */
import { operationOf } from "../coverage/Operations.js"
import type { JsonValue } from "../json/JsonValue.js"
import type { NormalizedBody, NormalizedExchange, NormalizedFrame, NormalizedRun, NormalizedStep } from "../normalize/NormalizedRun.js"
import type { Difference } from "./Difference.js"
import { diffJson } from "./diffJson.js"

const frameType = (f: NormalizedFrame): string => {
  const data = f.data
  if (f.event !== undefined) return `event:${f.event}`
  if (data !== undefined && typeof data === "object" && data !== null && !Array.isArray(data)) {
    const name = (data as Record<string, JsonValue>)["event"] ?? (data as Record<string, JsonValue>)["type"] ?? (data as Record<string, JsonValue>)["object"]
    if (typeof name === "string") return name
  }
  if (f.comment !== undefined) return `: ${f.comment}`
  return data === undefined ? "(empty)" : "data"
}

type Emit = (d: Omit<Difference, "step" | "exchange" | "operation">) => void

const diffBody = (e: NormalizedBody, a: NormalizedBody, emit: Emit) => {
  if (e.kind !== a.kind) {
    emit({ kind: "body-kind", path: "$.response.body", expected: e.kind, actual: a.kind })
    return
  }
  if (e.kind === "json" && a.kind === "json") {
    for (const d of diffJson(e.value, a.value, "$.response.body")) emit(d)
    return
  }
  if (e.kind === "sse" && a.kind === "sse") {
    const et = e.frames.map(frameType)
    const at = a.frames.map(frameType)
    if (et.join("\n") !== at.join("\n")) {
      emit({ kind: e.frames.length === a.frames.length ? "sse-order" : "sse-length", path: "$.response.body.frames", expected: et, actual: at })
    } else {
      e.frames.forEach((fe, i) => {
        const fa = a.frames[i] as NormalizedFrame
        for (const d of diffJson(fe as unknown as JsonValue, fa as unknown as JsonValue, `$.response.body.frames[${i}]`)) emit({ ...d, kind: "sse-payload" })
      })
    }
    if (e.complete !== a.complete) emit({ kind: "sse-completion", path: "$.response.body.complete", expected: e.stoppedBy ?? e.complete, actual: a.stoppedBy ?? a.complete })
    return
  }
  if ((e.kind === "text" || e.kind === "invalid-json") && (a.kind === "text" || a.kind === "invalid-json") && e.text !== a.text) {
    emit({ kind: "value", path: "$.response.body", expected: e.text, actual: a.text })
  }
}

const diffExchange = (e: NormalizedExchange, a: NormalizedExchange, emit: Emit) => {
  // The request differs only when references resolved differently: a consequence worth showing.
  for (const d of diffJson({ method: e.request.method, path: e.request.path, body: e.request.body ?? null }, { method: a.request.method, path: a.request.path, body: a.request.body ?? null }, "$.request")) {
    emit(d)
  }
  if (e.transportError !== undefined || a.transportError !== undefined) {
    if ((e.transportError === undefined) !== (a.transportError === undefined)) {
      emit({ kind: "transport", path: "$.response", expected: e.transportError ?? "response", actual: a.transportError ?? "response" })
    }
    return
  }
  if (e.response === undefined || a.response === undefined) return
  if (e.response.status !== a.response.status) emit({ kind: "status", path: "$.response.status", expected: e.response.status, actual: a.response.status })
  const eh = e.response.head
  const ah = a.response.head
  // heads are compared only when both sides went over a raw socket (fetch hides them)
  if (eh !== undefined && ah !== undefined) {
    if (eh.statusLine !== ah.statusLine) emit({ kind: "status-line", path: "$.response.head.statusLine", expected: eh.statusLine, actual: ah.statusLine })
    if (eh.headerNames.join("\n") !== ah.headerNames.join("\n")) emit({ kind: "header-names", path: "$.response.head.headerNames", expected: [...eh.headerNames], actual: [...ah.headerNames] })
    if (eh.framing !== ah.framing) emit({ kind: "framing", path: "$.response.head.framing", expected: eh.framing, actual: ah.framing })
  }
  const names = new Set([...Object.keys(e.response.headers), ...Object.keys(a.response.headers)])
  for (const name of [...names].sort()) {
    const ev = e.response.headers[name]
    const av = a.response.headers[name]
    if (ev !== av) emit({ kind: "header", path: `$.response.headers[${JSON.stringify(name)}]`, ...(ev !== undefined ? { expected: ev } : {}), ...(av !== undefined ? { actual: av } : {}) })
  }
  diffBody(e.response.body, a.response.body, emit)
}

const diffStep = (e: NormalizedStep, a: NormalizedStep, out: Array<Difference>) => {
  const stepEmit = (exchange: number, operation: string): Emit => (d) => out.push({ ...d, step: e.index, exchange, operation })
  if (e.error !== a.error) stepEmit(-1, e.kind)({ kind: "step-error", path: "$", ...(e.error !== undefined ? { expected: e.error } : {}), ...(a.error !== undefined ? { actual: a.error } : {}) })
  if (e.exchanges.length !== a.exchanges.length) {
    stepEmit(-1, e.kind)({ kind: "exchange-count", path: "$", expected: e.exchanges.length, actual: a.exchanges.length })
  }
  e.exchanges.forEach((ex, i) => {
    const ax = a.exchanges[i]
    if (ax === undefined) return
    const operation = operationOf(ex.request.method, ex.request.path)
    diffExchange(ex, ax, stepEmit(i, operation))
    if (e.settled !== a.settled && i === 0) stepEmit(i, operation)({ kind: "settled", path: "$.settled", expected: e.settled ?? null, actual: a.settled ?? null })
  })
}

export const diffRuns = (expected: NormalizedRun, actual: NormalizedRun): Array<Difference> => {
  const out: Array<Difference> = []
  expected.steps.forEach((e, i) => {
    const a = actual.steps[i]
    if (a !== undefined) diffStep(e, a, out)
  })
  const actualRelations = new Map(actual.relations.map((r) => [r.id, r.holds]))
  for (const r of expected.relations) {
    const other = actualRelations.get(r.id)
    const step = Number(/steps\[(\d+)\]/.exec(r.id)?.[1] ?? /^step (\d+)/.exec(r.id)?.[1] ?? -1)
    if (other !== undefined && other !== r.holds) out.push({ kind: "relation", step, exchange: -1, operation: "time", path: r.id, expected: r.holds, actual: other })
  }
  // a relation broken only on the candidate side, on a timestamp the reference did not show
  for (const r of actual.relations) {
    if (!r.holds && !expected.relations.some((x) => x.id === r.id)) {
      out.push({ kind: "relation", step: -1, exchange: -1, operation: "time", path: r.id, expected: null, actual: false })
    }
  }
  return out
}
