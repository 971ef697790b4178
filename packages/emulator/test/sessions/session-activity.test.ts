/**
 * The maintained last-activity key (hermes_session_activity) stays equal to what it stands for —
 * each session's latest message time, or its start without messages — through every write that
 * touches sessions or messages: create, a chat turn, a fork (copied messages keep their older
 * times), a title change, an end, a delete (children orphaned), a snapshot load, a namespace reset,
 * and a data dir written before the key existed. The list built on it answers as the old query did.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { layer } from "../../src/index.js"
import { clearNamespace } from "../../src/services/Storage.js"
import { recordAgentTurn } from "../../src/features/sessions/AgentTurnRecord.js"
import { copyMessages } from "../../src/features/sessions/SessionCopy.js"
import { listSessions, type ListQuery } from "../../src/features/sessions/SessionList.js"
import { deleteSession, endSession, setSessionTitle, upsertSession } from "../../src/features/sessions/SessionStore.js"
import { loadSnapshot, saveSnapshot } from "../../src/snapshot/NamespaceSnapshot.js"
import { legacyListSessions } from "./legacySessionList.js"

const NS = "default"

const session = (id: string, startedAt: number, parent: string | null = null) =>
  upsertSession(NS, { id, source: "api_server", model: "m", modelConfig: null, systemPrompt: null, parentSessionId: parent, startedAt })

const chat = (id: string, now: number, ns = NS) =>
  recordAgentTurn(ns, { sessionId: id, source: "api_server", now, opensSession: true, answeredCalls: 1, tokens: { input_tokens: 1, output_tokens: 1 }, messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }] })

/** Sessions whose key disagrees with their rows, and keys left without a session: both empty when kept. */
const drift = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe<Record<string, unknown>>(
    `SELECT s.namespace, s.id, a.active_at, a.started_at,
            COALESCE((SELECT MAX(m.timestamp) FROM hermes_messages m WHERE m.namespace = s.namespace AND m.session_id = s.id), s.started_at) AS expected
     FROM hermes_sessions s LEFT JOIN hermes_session_activity a ON a.namespace = s.namespace AND a.id = s.id
     WHERE a.id IS NULL OR a.active_at IS NOT expected OR a.started_at IS NOT s.started_at
     UNION ALL
     SELECT a.namespace, a.id, a.active_at, a.started_at, NULL FROM hermes_session_activity a
     WHERE NOT EXISTS (SELECT 1 FROM hermes_sessions s WHERE s.namespace = a.namespace AND s.id = a.id)`
  )
).pipe(Effect.orDie)

const activity = (id: string, ns = NS) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly active_at: number }>`SELECT active_at FROM hermes_session_activity WHERE namespace = ${ns} AND id = ${id}`
  ).pipe(Effect.map((rows) => rows[0]?.active_at), Effect.orDie)

const ALL: ListQuery = { source: undefined, limit: 200, offset: 0, includeChildren: false, excludeArchived: false }

/** The page as the new list answers it, checked against the old query first. */
const listed = (q: ListQuery = ALL) =>
  Effect.gen(function*() {
    const now = yield* listSessions(NS, q)
    expect(now).toEqual(yield* legacyListSessions(NS, q))
    return now.map((s) => s.id)
  })

const run = <A, E>(program: Effect.Effect<A, E, Layer.Layer.Success<ReturnType<typeof layer>>>) =>
  Effect.runPromise(Effect.scoped(Effect.provide(program, layer({ hermesVersion: "0.19.0" }))))

describe("the session activity key", () => {
  it("follows create, chat, fork, title, end and delete, and the list orders by it", async () => {
    await run(Effect.gen(function*() {
      yield* session("a", 100)
      yield* session("b", 200)
      expect(yield* activity("a")).toBe(100)
      expect(yield* listed()).toEqual(["b", "a"])

      yield* chat("a", 300)
      expect(yield* activity("a")).toBe(300)
      expect(yield* listed()).toEqual(["a", "b"])

      // a fork: the source ends "branched", the child starts later and copies messages with their
      // own (older) times, so its activity is the copy's latest message, not its start
      yield* endSession(NS, "a", "branched", 400)
      yield* session("a-fork", 500, "a")
      yield* copyMessages(NS, "a", "a-fork")
      expect(yield* activity("a-fork")).toBe(300)
      expect(yield* listed()).toEqual(["a-fork", "a", "b"])
      expect(yield* drift).toEqual([])

      // a title or an end changes nothing the key holds
      expect((yield* setSessionTitle(NS, "b", "renamed"))._tag).toBe("Right")
      yield* endSession(NS, "b", "cli_close", 900)
      expect(yield* activity("b")).toBe(200)

      yield* chat("b", 1000)
      expect(yield* listed()).toEqual(["b", "a-fork", "a"])

      // a delete drops the key and orphans the children, which become roots in the list
      yield* deleteSession(NS, "a")
      expect(yield* activity("a")).toBeUndefined()
      expect(yield* listed()).toEqual(["b", "a-fork"])
      expect(yield* listed({ ...ALL, limit: 1, offset: 1 })).toEqual(["a-fork"])
      expect(yield* drift).toEqual([])
    }))
  })

  it("a compression chain is ordered by its latest message anywhere along it", async () => {
    await run(Effect.gen(function*() {
      yield* session("root", 100)
      yield* session("other", 200)
      yield* endSession(NS, "root", "compression", 150)
      yield* session("tip", 160, "root")
      // the root is listed projected to its tip (its id shown), ordered by the chain: 160 < 200
      expect(yield* listed()).toEqual(["other", "tip"])
      yield* chat("tip", 500)
      // the tip's chat moves the whole chain ahead of "other"
      const rows = yield* listSessions(NS, ALL)
      expect(rows.map((r) => [r.id, r.lineage_root_id])).toEqual([["tip", "root"], ["other", undefined]])
      expect(yield* legacyListSessions(NS, ALL)).toEqual(rows)
      expect(yield* drift).toEqual([])
    }))
  })

  it("is rebuilt by a snapshot load and cleared by a namespace reset, other namespaces untouched", async () => {
    await run(Effect.gen(function*() {
      yield* session("a", 100)
      yield* chat("a", 300)
      yield* session("b", 200)
      yield* chat("kept", 50, "other")
      const snapshot = yield* saveSnapshot(NS)
      expect(Object.keys(snapshot.tables)).not.toContain("hermes_session_activity")

      yield* clearNamespace(NS)
      expect(yield* activity("a")).toBeUndefined()
      expect(yield* activity("kept", "other")).toBe(50)
      expect(yield* listed()).toEqual([])

      yield* session("stale", 999)
      yield* loadSnapshot(NS, snapshot)
      expect(yield* activity("stale")).toBeUndefined()
      expect(yield* activity("a")).toBe(300)
      expect(yield* listed()).toEqual(["a", "b"])
      expect(yield* drift).toEqual([])
    }))
  })

  it("a data dir written before the key existed gets it when the schema runs again", async () => {
    await run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* session("a", 100)
      yield* chat("a", 300)
      yield* session("b", 200)
      yield* sql`DELETE FROM hermes_session_activity`
      expect((yield* drift).length).toBe(2)
      const { SESSION_ACTIVITY_TABLES } = yield* Effect.promise(() => import("../../src/features/sessions/SessionActivity.js"))
      for (const statement of SESSION_ACTIVITY_TABLES) yield* sql.unsafe(statement)
      expect(yield* drift).toEqual([])
      expect(yield* listed()).toEqual(["a", "b"])
    }))
  })
})
