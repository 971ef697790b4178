/**
 * A request that storage fails answers 500 and shows: one stderr line with SQLite's code and
 * message and the data dir, and a journal entry with the status and the operation. Before, the
 * 500 came from the socket adapter's last resort: nothing on stderr, `status: null, operation: null`.
 */
import { expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import Database from "better-sqlite3"
import { Context, Effect, Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, vi } from "vitest"
import { Emulator, layer, Storage, type StorageShape, storageLayer } from "../../src/index.js"
import type { PreparedStatement } from "../../src/services/Storage.js"

const API_KEY = "test-key-0123456789abcdef"
const HEADERS = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json", "x-hermetic-admin-key": API_KEY }

const request = (method: string, path: string, body?: unknown) =>
  Effect.flatMap(Emulator, (emu) =>
    Effect.promise(async () => {
      const res = await emu.fetch(`http://emulator${path}`, { method, headers: HEADERS, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
      return { status: res.status, text: await res.text() }
    }))

/** The journal's entries for one path, newest last. */
const journalOf = (path: string, operation?: string) =>
  Effect.map(request("GET", `/__admin/journal?path=${encodeURIComponent(path)}${operation === undefined ? "" : `&operation=${operation}`}`), (r) =>
    (JSON.parse(r.text) as { entries: Array<{ path: string; status: number | null; operation: string | null }> }).entries)

/** Everything written to stderr while the test runs. */
const captureStderr = () => {
  const lines: Array<string> = []
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk))
    return true
  })
  return lines
}
afterEach(() => {
  vi.restoreAllMocks()
})

const corrupt = () => new Database.SqliteError("database disk image is malformed", "SQLITE_CORRUPT")

/** A statement whose every use fails as a corrupt page does. */
const failingStatement: PreparedStatement = {
  run: () => {
    throw corrupt()
  },
  get: () => {
    throw corrupt()
  },
  all: () => {
    throw corrupt()
  }
}

/**
 * The emulator's storage in memory, replaced by one that fails from `broken.now` on (its lean
 * door), said to live at /var/lib/hermetic: the Storage layer a program may provide.
 */
const failingStorage = (broken: { now: boolean }) =>
  Layer.effectContext(
    Effect.gen(function*() {
      const inner = yield* Storage
      const sql = yield* SqlClient.SqlClient
      const storage: StorageShape = {
        ...inner,
        location: "/var/lib/hermetic/hermetic-emulator.db",
        statement: (text) => (broken.now ? failingStatement : inner.statement(text)),
        use: (f) => (broken.now ? Effect.die(corrupt()) : inner.use(f)),
        transaction: (f) => (broken.now ? Effect.die(corrupt()) : inner.transaction(f))
      }
      return Context.make(Storage, storage).pipe(Context.add(SqlClient.SqlClient, sql))
    })
  ).pipe(Layer.provide(storageLayer(":memory:")))

it.scoped("a provided Storage that fails: each failed request logs one line naming SQLite's error and the data dir, and the journal keeps its status and operation", () => {
  const broken = { now: false }
  return Effect.gen(function*() {
    expect((yield* request("GET", "/v1/runs/run_unknown")).status).toBe(404)
    broken.now = true
    const lines = captureStderr()
    const list = yield* request("GET", "/v1/runs/run_unknown")
    const again = yield* request("GET", "/v1/runs/run_unknown")
    vi.restoreAllMocks()
    expect([list.status, list.text]).toEqual([500, "500 Internal Server Error\n\nServer got itself in trouble"])
    expect(again.status).toBe(500)
    expect(lines).toEqual(Array.from({ length: 2 }, () =>
      "hermes-emulator: storage failed in data dir /var/lib/hermetic (file hermetic-emulator.db) answering GET /v1/runs/{run_id}: " +
      "SQLITE_CORRUPT: database disk image is malformed; the request got a 500\n"))
    // what does not touch storage still answers
    expect((yield* request("GET", "/health")).status).toBe(200)
    const entries = yield* journalOf("/v1/runs/run_unknown")
    expect(entries.map((e) => [e.status, e.operation])).toEqual([[404, "runs.get"], [500, "runs.get"], [500, "runs.get"]])
  }).pipe(Effect.provide(layer({ apiKey: API_KEY }).pipe(Layer.provide(failingStorage(broken)))))
})

it.scoped("any other crash of a handler is answered and journaled the same way, with its own line", () => {
  const broken = { now: false }
  const crashing = Layer.effectContext(
    Effect.gen(function*() {
      const inner = yield* Storage
      const sql = yield* SqlClient.SqlClient
      const storage: StorageShape = { ...inner, use: (f) => (broken.now ? Effect.die(new TypeError("boom\nsecond line")) : inner.use(f)) }
      return Context.make(Storage, storage).pipe(Context.add(SqlClient.SqlClient, sql))
    })
  ).pipe(Layer.provide(storageLayer(":memory:")))
  return Effect.gen(function*() {
    broken.now = true
    const lines = captureStderr()
    const got = yield* request("GET", "/v1/runs/run_unknown")
    vi.restoreAllMocks()
    expect(got.status).toBe(500)
    expect(lines).toEqual(["hermes-emulator: internal error answering GET /v1/runs/{run_id}: TypeError: boom second line; the request got a 500\n"])
    expect((yield* journalOf("/v1/runs/run_unknown")).map((e) => [e.status, e.operation])).toEqual([[500, "runs.get"]])
  }).pipe(Effect.provide(layer({ apiKey: API_KEY }).pipe(Layer.provide(crashing))))
})

it.scoped("a control plane request that storage fails shows the same way", () => {
  const broken = { now: false }
  return Effect.gen(function*() {
    broken.now = true
    const lines = captureStderr()
    const reset = yield* request("POST", "/__admin/reset")
    vi.restoreAllMocks()
    expect(reset.status).toBe(500)
    expect(lines).toEqual([
      "hermes-emulator: storage failed in data dir /var/lib/hermetic (file hermetic-emulator.db) answering POST /__admin/reset: " +
      "SQLITE_CORRUPT: database disk image is malformed; the request got a 500\n"
    ])
    broken.now = false
    expect((yield* journalOf("/__admin/reset", "admin")).map((e) => [e.status, e.operation])).toEqual([[500, "admin"]])
  }).pipe(Effect.provide(layer({ apiKey: API_KEY }).pipe(Layer.provide(failingStorage(broken)))))
})

it.scoped("a real data dir that fills up (SQLITE_FULL): the writes that fail show, the reads still answer", () => {
  const dir = mkdtempSync(join(tmpdir(), "hermetic-full-"))
  const file = join(dir, "hermetic-emulator.db")
  return Effect.gen(function*() {
    yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
    yield* Effect.scoped(
      Effect.gen(function*() {
        expect((yield* request("POST", "/api/sessions", { id: "kept", title: "Kept" })).status).toBe(201)
        // the file may not grow past the pages it has: a full disk, as SQLite reports one
        const storage = yield* Storage
        yield* storage.use(() => storage.statement("PRAGMA max_page_count = 1").get())
        const lines = captureStderr()
        const statuses: Array<number> = []
        for (let i = 0; i < 200 && !statuses.includes(500); i++) {
          statuses.push((yield* request("POST", "/api/sessions", { id: `s-${i}`, system_prompt: "x".repeat(4000) })).status)
        }
        vi.restoreAllMocks()
        expect(statuses.at(-1)).toBe(500)
        expect(lines).toEqual([
          `hermes-emulator: storage failed in data dir ${dir} (file hermetic-emulator.db) answering POST /api/sessions: ` +
          "SQLITE_FULL: database or disk is full; the request got a 500\n"
        ])
        expect((yield* journalOf("/api/sessions")).at(-1)).toMatchObject({ status: 500, operation: "sessions.create" })
        expect((yield* request("GET", "/api/sessions/kept")).status).toBe(200)
      }).pipe(Effect.provide(layer({ apiKey: API_KEY }).pipe(Layer.provide(storageLayer(file)))))
    )
  })
})
