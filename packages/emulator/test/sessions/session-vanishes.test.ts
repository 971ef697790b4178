/**
 * A session deleted by another client between a handler's write and its read back. No recording
 * can place a DELETE there (evidence/live-comparisons/fork-vanished/README.md), so a seam does: a
 * SqlClient whose read of one session id is preceded by that session's delete, as a concurrent
 * `DELETE /api/sessions/{id}` that got the connection first would be. Such a DELETE cannot commit
 * while the reading fiber holds a transaction (the one connection is held from BEGIN to COMMIT),
 * so the seam lets a read inside a transaction through.
 *
 * 0.19.0 (gateway/platforms/api_server.py): the fork handler's last step is
 * `db.get_session(fork_id) or {"id": fork_id, "parent_session_id": source_id}`, answered 201 through
 * `_session_response`; the create handler reads its row back inside its own write transaction.
 */
import { expect, it } from "@effect/vitest"
import { SqlClient, type Statement } from "@effect/sql"
import { Context, Effect, Layer, Option } from "effect"
import { Emulator, layer, storageLayer } from "../../src/index.js"
import { deleteSession } from "../../src/features/sessions/SessionStore.js"
import { API_KEY } from "../support.js"

const HEADERS = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" }

const request = (method: string, path: string, body?: unknown) =>
  Effect.flatMap(Emulator, (emu) =>
    Effect.promise(async () => {
      const res = await emu.fetch(`http://emulator${path}`, { method, headers: HEADERS, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
      return { status: res.status, text: await res.text() }
    }))

/** How SessionStore.getSession reads one session row. */
const isSessionRead = (query: string) => /^SELECT .* FROM hermes_sessions WHERE namespace = \? AND id = \?$/s.test(query)

/**
 * The emulator's storage in memory, its SqlClient wrapped: while `victim.id` is set, a read of that
 * session outside a transaction first deletes it (children orphaned, messages gone), through the
 * unwrapped client; `victim.deletes` counts the deletes that found the row.
 */
const deletedBeforeRead = (victim: { id: string | undefined; deletes: number }) =>
  Layer.effectContext(
    Effect.gen(function*() {
      const context = yield* Effect.context<SqlClient.SqlClient>()
      const inner = Context.get(context, SqlClient.SqlClient)
      const unsafe = <A extends object>(query: string, params?: ReadonlyArray<unknown>): Statement.Statement<A> => {
        const read = inner.unsafe<A>(query, params)
        const [namespace, id] = params ?? []
        if (victim.id === undefined || id !== victim.id || !isSessionRead(query)) return read
        const deleteFirst = Effect.withFiberRuntime<void>((fiber) => {
          if (Option.isSome(Context.getOption(fiber.currentContext, SqlClient.TransactionConnection))) return Effect.void
          return deleteSession(String(namespace), victim.id ?? "").pipe(
            Effect.provideService(SqlClient.SqlClient, inner),
            Effect.map((found) => {
              if (found) victim.deletes += 1
            })
          )
        })
        // getSession only runs the statement: the delete goes in front of it
        return Object.assign(Effect.zipRight(deleteFirst, read), read) as typeof read
      }
      const wrapped = new Proxy(inner, { get: (target, key, receiver) => (key === "unsafe" ? unsafe : Reflect.get(target, key, receiver)) })
      return Context.add(context, SqlClient.SqlClient, wrapped)
    })
  ).pipe(Layer.provide(storageLayer(":memory:")))

it.scoped("a fork deleted before the handler reads it back: 201 with only the id, the parent and two false flags, as 0.19.0 answers", () => {
  const victim = { id: undefined as string | undefined, deletes: 0 }
  return Effect.gen(function*() {
    expect((yield* request("POST", "/api/sessions", { id: "src", system_prompt: "be brief" })).status).toBe(201)
    victim.id = "gone"
    const fork = yield* request("POST", "/api/sessions/src/fork", { id: "gone", title: "t" })
    expect(victim.deletes).toBe(1)
    expect([fork.status, fork.text]).toEqual([
      201,
      `{"object": "hermes.session", "session": {"id": "gone", "parent_session_id": "src", "has_system_prompt": false, "has_model_config": false}}`
    ])
    victim.id = undefined
    // the delete did land: the fork is gone, the source ended as branched
    expect((yield* request("GET", "/api/sessions/gone")).status).toBe(404)
    expect((yield* request("GET", "/api/sessions/src")).text).toContain(`"end_reason": "branched"`)
  }).pipe(Effect.provide(layer({ apiKey: API_KEY, hermesVersion: "0.19.0" }).pipe(Layer.provide(deletedBeforeRead(victim)))))
})

it.scoped("a created session is read back inside its own transaction, where no DELETE can land: the full row, 201", () => {
  const victim = { id: "made" as string | undefined, deletes: 0 }
  return Effect.gen(function*() {
    const created = yield* request("POST", "/api/sessions", { id: "made", title: "kept" })
    expect(created.status).toBe(201)
    expect(created.text).toContain(`"session": {"id": "made", "source": "api_server"`)
    expect(created.text).toContain(`"title": "kept"`)
    expect(victim.deletes).toBe(0)
    // the seam itself works: a later read outside a transaction loses the row
    expect((yield* request("GET", "/api/sessions/made")).status).toBe(404)
    expect(victim.deletes).toBe(1)
  }).pipe(Effect.provide(layer({ apiKey: API_KEY, hermesVersion: "0.19.0" }).pipe(Layer.provide(deletedBeforeRead(victim)))))
})
