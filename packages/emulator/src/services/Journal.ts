/**
 * The verification journal: every request the emulator answered, newest last, bounded. By default
 * it keeps metadata only. With bodies on (an option, or per namespace over the control plane) it
 * also keeps each request's headers and body — bounded, with credentials redacted — and the model
 * calls the agent made for it (the messages it would send to the model).
 */
import { Context, Effect } from "effect"
import type { EmulatorConfigShape } from "../config/EmulatorConfig.js"
import { captureRequest, type CapturedRequest, requestSession } from "../journal/RequestCapture.js"
import { type JournalQuery, matchesQuery } from "../journal/JournalQuery.js"
import { type ModelCall, type ModelCallObserver, modelMessagesJson } from "../journal/ModelCalls.js"
import { makeRedactor } from "../journal/Redaction.js"
import type { JournalEntry } from "../journal/JournalEntry.js"

export type { JournalEntry } from "../journal/JournalEntry.js"

export interface JournalSettings {
  /** Keep request bodies and model calls. */
  readonly bodies: boolean
  /** The most bytes kept of one body, or of one model call's messages. */
  readonly maxBodyBytes: number
}

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024

export interface JournalOpening {
  /** The namespace clock (the entry's time, and each model call's). */
  readonly now: () => number
  readonly namespace: string
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string | undefined>>
  /** The control plane is journaled without bodies (snapshots and scripts are not requests of the app). */
  readonly admin: boolean
}

export interface JournalClosing {
  readonly operation: string | null
  readonly status: number
  readonly durationMs: number
  readonly fault: string | null
  /** The session the response names (X-Hermes-Session-Id), used when the request named none. */
  readonly responseSession: string | null
}

export interface JournalShape {
  /** Starts an entry; returns its id and, when model calls are kept, the observer for them. */
  readonly open: (opening: JournalOpening) => { readonly id: number; readonly observer: ModelCallObserver | undefined }
  /** The request body, once the app has read it (bodies are read on demand; an unread one stays empty). */
  readonly attachBody: (id: number, body: Uint8Array) => void
  readonly close: (id: number, closing: JournalClosing) => void
  readonly settings: (namespace: string) => JournalSettings
  readonly configure: (namespace: string, settings: Partial<JournalSettings>) => Effect.Effect<JournalSettings>
  /** Entries of a namespace (all namespaces when undefined) matching the query, oldest first. */
  readonly query: (namespace: string | undefined, query?: JournalQuery) => Effect.Effect<ReadonlyArray<JournalEntry>>
  readonly entries: (namespace: string | undefined) => Effect.Effect<ReadonlyArray<JournalEntry>>
  readonly clear: (namespace: string) => Effect.Effect<void>
}

export class Journal extends Context.Tag("hermetic/Journal")<Journal, JournalShape>() {}

export interface JournalOptions {
  /** How many entries are kept (oldest dropped first). */
  readonly capacity?: number
  /** The default for every namespace. */
  readonly bodies?: boolean
  readonly maxBodyBytes?: number
  /** Literal secrets to redact wherever they appear (the API and admin keys). */
  readonly secrets?: ReadonlyArray<string | undefined>
}

type MutableEntry = { -readonly [K in keyof JournalEntry]: JournalEntry[K] }

const encoder = new TextEncoder()

export const makeJournal = (options: JournalOptions = {}): JournalShape => {
  const capacity = options.capacity ?? 1000
  const defaults: JournalSettings = { bodies: options.bodies ?? false, maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES }
  const perNamespace = new Map<string, JournalSettings>()
  const redact = makeRedactor(options.secrets)
  // every field taken from the request is redacted like its headers: a session id or a path may
  // carry a key (X-Hermes-Session-Id: sk-…)
  const redactText = (s: string | null): string | null => (s === null ? null : redact.text(s))
  let buffer: Array<MutableEntry> = []
  const byId = new Map<number, MutableEntry>()
  let nextId = 1
  // the request headers of entries that keep bodies, until their body is attached or they close
  const awaitingBody = new Map<number, { readonly headers: JournalOpening["headers"]; readonly maxBodyBytes: number }>()
  const settings = (ns: string) => perNamespace.get(ns) ?? defaults

  const observerFor = (entry: MutableEntry, bound: number, now: () => number): ModelCallObserver => (messages) => {
    const json = modelMessagesJson(messages)
    const truncated = encoder.encode(json).byteLength > bound
    let kept: ReadonlyArray<unknown> = []
    try {
      if (!truncated) kept = redact.json(JSON.parse(json)) as ReadonlyArray<unknown>
    } catch {
      // Python's json.dumps writes NaN/Infinity, which JSON cannot hold: keep the text instead
      kept = [redact.text(json)]
    }
    const call: ModelCall = { at: now(), messages: kept, truncated }
    entry.modelCalls = [...entry.modelCalls, call]
  }
  const snapshot = (e: MutableEntry): JournalEntry => ({ ...e })

  return {
    open: (o) => {
      const { bodies, maxBodyBytes } = settings(o.namespace)
      const keep = bodies && !o.admin
      const request = keep ? captureRequest(o.headers, new Uint8Array(0), maxBodyBytes, redact) : undefined
      const entry: MutableEntry = {
        id: nextId++,
        at: o.now(),
        namespace: o.namespace,
        method: o.method,
        path: redact.text(o.path),
        operation: o.admin ? "admin" : null,
        status: null,
        durationMs: null,
        fault: null,
        session: redactText(requestSession(o.path, o.headers, request?.body ?? null)),
        ...(request === undefined ? {} : { request }),
        modelCalls: []
      }
      buffer.push(entry)
      byId.set(entry.id, entry)
      if (keep) awaitingBody.set(entry.id, { headers: o.headers, maxBodyBytes })
      // one in, one out: no copy of the whole buffer per request once it is full
      while (buffer.length > capacity) {
        const dropped = buffer.shift()
        if (dropped !== undefined) {
          byId.delete(dropped.id)
          awaitingBody.delete(dropped.id)
        }
      }
      return { id: entry.id, observer: keep ? observerFor(entry, maxBodyBytes, o.now) : undefined }
    },
    attachBody: (id, body) => {
      const waiting = awaitingBody.get(id)
      const entry = byId.get(id)
      awaitingBody.delete(id)
      if (waiting === undefined || entry === undefined) return
      const request = captureRequest(waiting.headers, body, waiting.maxBodyBytes, redact)
      entry.request = request
      if (entry.session === null) entry.session = redactText(requestSession(entry.path, waiting.headers, request.body))
    },
    close: (id, c) => {
      awaitingBody.delete(id)
      const entry = byId.get(id)
      if (entry === undefined) return
      entry.operation = c.operation
      entry.status = c.status
      entry.durationMs = c.durationMs
      entry.fault = c.fault
      if (entry.session === null) entry.session = redactText(c.responseSession)
    },
    settings,
    configure: (ns, s) =>
      Effect.sync(() => {
        const next = { ...settings(ns), ...s }
        perNamespace.set(ns, next)
        return next
      }),
    query: (ns, q = {}) =>
      Effect.sync(() => {
        const matches = matchesQuery(q)
        const found = buffer.filter((e) => (ns === undefined || e.namespace === ns) && matches(e)).map(snapshot)
        return q.limit === undefined ? found : found.slice(Math.max(0, found.length - q.limit))
      }),
    entries: (ns) => Effect.sync(() => buffer.filter((e) => ns === undefined || e.namespace === ns).map(snapshot)),
    clear: (ns) =>
      Effect.sync(() => {
        for (const e of buffer) if (e.namespace === ns) byId.delete(e.id)
        buffer = buffer.filter((e) => e.namespace !== ns)
      })
  }
}

/** The journal of an emulator started with `config`: its API and admin keys are the literal secrets it redacts. */
export const journalFor = (config: Pick<EmulatorConfigShape, "apiKey" | "adminKey">, options: JournalOptions = {}): JournalShape =>
  makeJournal({ ...options, secrets: [config.apiKey, config.adminKey] })
