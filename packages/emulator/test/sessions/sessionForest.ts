/**
 * Random session forests for the list's tests and its scale bench: forks, compression chains,
 * branches, delegates and tool children, ties in start times, messages with their own times.
 * Rows are inserted through the storage's lean door; the generator is a seeded PRNG so a failure
 * replays.
 */
import { Effect } from "effect"
import { Storage } from "../../src/services/Storage.js"

/** mulberry32: small, seedable, good enough to shape test data. */
export const prng = (seed: number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export interface ForestOptions {
  readonly sessions: number
  readonly seed: number
  /** Messages per session: 0 to this many. */
  readonly maxMessages?: number
  readonly namespace?: string
}

const END_REASONS = [null, null, "compression", "compression", "branched", "cli_close"] as const
const SOURCES = ["api_server", "api_server", "cli", "tool"] as const

/** Inserts a forest of `sessions` sessions with messages into the namespace. */
export const seedSessionForest = (o: ForestOptions) =>
  Effect.flatMap(Storage, (storage) =>
    storage.transaction(() => {
      const rnd = prng(o.seed)
      const ns = o.namespace ?? "default"
      const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(rnd() * xs.length)] as A
      const insertSession = storage.statement(
        `INSERT INTO hermes_sessions (namespace, id, source, model_config, parent_session_id, started_at, ended_at, end_reason, archived, message_count)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
      )
      const insertMessage = storage.statement(
        `INSERT INTO hermes_messages (namespace, id, session_id, role, content, timestamp) VALUES (?, ?, ?, ?, ?, ?)`
      )
      const ids: Array<string> = []
      let messageId = 0
      let t = 1_700_000_000
      for (let i = 0; i < o.sessions; i++) {
        const id = `s${String(i).padStart(6, "0")}_${Math.floor(rnd() * 1e6).toString(36)}`
        // ties in start times happen (same second), and so do parents that are not the newest
        t += rnd() < 0.2 ? 0 : Math.floor(rnd() * 30)
        const parent = ids.length > 0 && rnd() < 0.6 ? pick(ids.slice(-50)) : null
        const marker = rnd()
        const modelConfig = marker < 0.05 ? JSON.stringify({ _branched_from: parent ?? "x" }) : marker < 0.08 ? JSON.stringify({ _delegate_from: "x" }) : marker < 0.1 ? "{}" : null
        const endReason = pick(END_REASONS)
        const endedAt = endReason === null ? null : t + Math.floor(rnd() * 40) - 10
        const messages = Math.floor(rnd() * ((o.maxMessages ?? 3) + 1))
        insertSession.run(ns, id, pick(SOURCES), modelConfig, parent, t, endedAt, endReason, rnd() < 0.1 ? 1 : 0, messages)
        for (let m = 0; m < messages; m++) {
          messageId++
          const role = m % 2 === 0 ? "user" : "assistant"
          const content = rnd() < 0.1 ? null : `${role} ${i}.${m}\n${"word ".repeat(Math.floor(rnd() * 20))}`
          insertMessage.run(ns, messageId, id, role, content, t + Math.floor(rnd() * 5000))
        }
        ids.push(id)
      }
      storage.statement(`INSERT OR REPLACE INTO hermes_message_seq (namespace, last_id) VALUES (?, ?)`).run(ns, messageId)
      return ids
    })
  )
