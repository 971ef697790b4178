/**
 * Journal helpers for plain-Promise tests, over the control plane of any running emulator
 * (`startEmulator`, `hermes-emulator serve`):
 *
 *   const journal = journalOf(emu.url)
 *   await journal.keepBodies()
 *   ... drive your app ...
 *   const entry = await journal.expectRequest({ operation: "chat.completions", text: "hello" })
 */
import type { JournalQuery } from "../journal/JournalQuery.js"
import type { ModelCall } from "../journal/ModelCalls.js"
import type { JournalEntry, JournalSettings } from "../services/Journal.js"
import { type ExpectOptions, expectationMessage, satisfies } from "./journalExpectation.js"

export type { ExpectOptions, JournalEntry, JournalQuery, ModelCall }

export interface JournalClientOptions {
  readonly namespace?: string
  /** The admin key, when the emulator requires one (`--admin-key`). */
  readonly adminKey?: string
}

export interface JournalClient {
  /** Keep request bodies and model calls from now on (redacted, bounded). */
  readonly keepBodies: (settings?: Partial<JournalSettings>) => Promise<JournalSettings>
  readonly find: (query?: JournalQuery) => Promise<ReadonlyArray<JournalEntry>>
  /** Rejects unless there is a match (exactly `times` with that option); resolves to the last match. */
  readonly expectRequest: (query: JournalQuery, options?: ExpectOptions) => Promise<JournalEntry>
  readonly expectRequests: (query: JournalQuery, options?: ExpectOptions) => Promise<ReadonlyArray<JournalEntry>>
  readonly expectNoRequest: (query: JournalQuery) => Promise<void>
  readonly modelCallsOf: (query: JournalQuery, options?: ExpectOptions) => Promise<ReadonlyArray<ModelCall>>
  readonly clear: () => Promise<void>
}

/** What journalOf reads of a RunningEmulator: its URL, and the key its control plane wants. */
interface EmulatorLike {
  readonly url: string
  readonly config?: { readonly apiKey: string; readonly adminKey: string | undefined }
}

/**
 * `baseUrl` is the emulator's URL, or anything with a `url` (a RunningEmulator, whose admin key,
 * else API key, is then sent unless `adminKey` says otherwise).
 */
export const journalOf = (base: string | EmulatorLike, options: JournalClientOptions = {}): JournalClient => {
  const url = `${typeof base === "string" ? base : base.url}/__admin/journal`
  const namespace = options.namespace ?? "default"
  const headers: Record<string, string> = { "x-hermetic-namespace": namespace, "content-type": "application/json" }
  const config = typeof base === "string" ? undefined : base.config
  const key = options.adminKey ?? config?.adminKey ?? (config?.apiKey === "" ? undefined : config?.apiKey)
  if (key !== undefined) headers["x-hermetic-admin-key"] = key
  const call = async <T>(method: string, query?: JournalQuery, body?: unknown): Promise<T> => {
    const params = new URLSearchParams()
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.set(k, String(v))
    const qs = params.size === 0 ? "" : `?${params}`
    const res = await fetch(`${url}${qs}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    const text = await res.text()
    if (res.status !== 200) throw new Error(`${method} /__admin/journal${qs} answered ${res.status}: ${text}`)
    return JSON.parse(text) as T
  }
  const find = async (query: JournalQuery = {}) =>
    (await call<{ entries: ReadonlyArray<JournalEntry> }>("GET", query)).entries
  const expectRequests = async (query: JournalQuery, opts: ExpectOptions = {}) => {
    const deadline = Date.now() + (opts.withinMs ?? 0)
    for (;;) {
      const found = await find(query)
      if (satisfies(found.length, opts.times)) return found
      if (Date.now() >= deadline) throw new Error(expectationMessage(query, namespace, opts.times, found, await find()))
      await new Promise((r) => setTimeout(r, 20))
    }
  }
  return {
    keepBodies: async (settings = {}) => (await call<{ settings: JournalSettings }>("POST", undefined, { bodies: true, ...settings })).settings,
    find,
    expectRequests,
    expectRequest: async (query, opts) => {
      const found = await expectRequests(query, opts)
      return found[found.length - 1] as JournalEntry
    },
    expectNoRequest: async (query) => void (await expectRequests(query, { times: 0 })),
    modelCallsOf: async (query, opts) => (await expectRequests(query, opts)).flatMap((e) => e.modelCalls),
    clear: async () => void (await call("DELETE"))
  }
}
