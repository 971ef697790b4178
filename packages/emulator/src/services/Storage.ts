/**
 * Durable state: one better-sqlite3 connection to a SQLite file under the data dir (`:memory:` in
 * tests), owned here. Two doors open on it:
 * - `SqlClient` (@effect/sql) for everything written as tagged SQL, transactions included;
 * - `Storage`, a lean door for the hot paths (run statuses, the runs ledger, the turn record,
 *   resets): a statement prepared once and run synchronously, with no span, cache lookup or fiber
 *   per statement. Profiling showed @effect/sql's per-statement machinery costing more than the
 *   SQLite work itself on a POST /v1/runs.
 * Only what upstream itself persists lives here (the 0.21.0 runs ledger, stored responses,
 * sessions, jobs) plus settled run statuses in a volatile table; what upstream keeps in process
 * memory stays in the run state, so a restart loses exactly what a real restart loses.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient, SqlError, Statement } from "@effect/sql"
import type { Connection } from "@effect/sql/SqlConnection"
import Database from "better-sqlite3"
import { Context, Effect, Exit, Layer, Option, Scope, Stream } from "effect"
import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import { bindingUnavailable, isBindingFailure, type NativeBindingUnavailable } from "./NativeBinding.js"
import { BACKSTOP_PAGES, walCheckpointer, type WalCheckpointer } from "./WalCheckpointer.js"
import { closedUncleanly, isCorruption, quickCheckProblems, sqliteMessage, storageCorrupt, type StorageCorrupt } from "./StorageIntegrity.js"

/** The tables the emulator keeps (storage/Schema.ts assembles them from the parts that own them). */
export interface StorageSchema {
  /** DDL, each statement idempotent, run at every open; order matters for foreign keys only. */
  readonly statements: ReadonlyArray<string>
  /** Tables holding one namespace's durable state, each keyed by a `namespace` column. */
  readonly namespacedTables: ReadonlyArray<string>
}

/** A statement prepared on the connection (better-sqlite3's, kept out of the public types). */
export interface PreparedStatement {
  run(...params: Array<unknown>): { readonly changes: number; readonly lastInsertRowid: number | bigint }
  get(...params: Array<unknown>): unknown
  all(...params: Array<unknown>): Array<unknown>
}

export interface StorageShape {
  /** `sql` prepared once on the connection (kept for the connection's life). */
  readonly statement: (sql: string) => PreparedStatement
  /**
   * Runs `f` against the connection: at once when no transaction of another fiber is open on it
   * (the result is then an already-completed Effect, which the request path runs without a
   * fiber), otherwise after that transaction. A throwing `f` is a defect, as a failed statement
   * is everywhere in the emulator.
   */
  readonly use: <A>(f: () => A) => Effect.Effect<A>
  /** `f` as one SQLite transaction (a savepoint inside a transaction of the calling fiber). */
  readonly transaction: <A>(f: () => A) => Effect.Effect<A>
  /** Deletes one namespace's durable state (admin reset). */
  readonly clearNamespace: (namespace: string) => Effect.Effect<void>
  /** The SQLite file (`:memory:` for none), named when a request fails because storage did; a provided storage may leave it out. */
  readonly location?: string
  /** A file's WAL checkpoints, run by a worker thread (WalCheckpointer.ts); none in memory. */
  readonly checkpointer?: WalCheckpointer
}

/** Why the storage did not open: better-sqlite3's addon cannot load, or the data dir's file is damaged. */
export type StorageOpenError = NativeBindingUnavailable | StorageCorrupt

export class Storage extends Context.Tag("hermetic/Storage")<Storage, StorageShape>() {}

const STATEMENT_CACHE_SIZE = 500

const ROLLBACK = /^\s*ROLLBACK\b/i

const sqlError = (cause: unknown) => new SqlError.SqlError({ cause, message: "Failed to execute statement" })

const attempt = <A>(f: () => A): Exit.Exit<A> => {
  try {
    return Exit.succeed(f())
  } catch (e) {
    return Exit.die(e)
  }
}

/** Opens the connection, and the SqlClient and the lean door on it. */
const open = (filename: string, schema: StorageSchema) => Effect.gen(() => openDatabase(filename, schema))

function* openDatabase(filename: string, schema: StorageSchema) {
  const file = filename !== ":memory:"
  if (file) mkdirSync(dirname(filename), { recursive: true })
  // before the open: the open itself makes a write-ahead log
  const unclean = file && closedUncleanly(filename)
  const db = yield* Effect.acquireRelease(
    // an addon that cannot be loaded is the user's install to fix: a typed error that says how;
    // any other failure to open is a defect, as a failed statement is
    Effect.suspend(() => {
      try {
        return Effect.succeed(new Database(filename))
      } catch (e) {
        return isBindingFailure(e) ? Effect.fail(bindingUnavailable(e)) : Effect.die(e)
      }
    }),
    (d) => Effect.sync(() => d.close())
  )
  yield* Effect.suspend(() => {
    try {
      db.pragma("journal_mode = WAL")
      // with WAL, NORMAL still survives a killed process (a restart on the same data dir, what the
      // emulator promises); only an OS crash could lose the last commits. FULL's fsync per commit
      // was the largest single cost of a POST /v1/runs.
      db.pragma("synchronous = NORMAL")
      // checkpoints belong to the worker below: this connection's own only past the backstop
      if (file) db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`)
      // a full check only after a process left without closing the file (StorageIntegrity.ts says why)
      const problems = unclean ? quickCheckProblems(db.pragma("quick_check") as Array<unknown>) : undefined
      return problems === undefined ? Effect.void : Effect.fail(storageCorrupt(filename, problems))
    } catch (e) {
      return isCorruption(e) ? Effect.fail(storageCorrupt(filename, sqliteMessage(e))) : Effect.die(e)
    }
  })

  // released before the connection: the worker's connection closes first, so the main one's close
  // still finds itself the last and removes the log
  const checkpointer = file ? yield* Effect.acquireRelease(Effect.sync(() => walCheckpointer(filename)), (c) => Effect.promise(c.close)) : undefined

  // BEGIN/COMMIT prepared once: better-sqlite3's db.transaction(f) builds a new wrapper per call,
  // which cost about 9 µs of every POST /v1/runs (a nested call still takes its savepoints)
  const begin = db.prepare("BEGIN")
  const commit = db.prepare("COMMIT")
  const rollback = db.prepare("ROLLBACK")
  const atomically = <A>(f: () => A): A => {
    if (db.inTransaction) return db.transaction(f)()
    begin.run()
    try {
      const result = f()
      commit.run()
      return result
    } catch (e) {
      if (db.inTransaction) rollback.run()
      throw e
    }
  }

  const cache = new Map<string, Database.Statement>()
  const statement = (sql: string): Database.Statement => {
    let s = cache.get(sql)
    if (s === undefined) {
      s = db.prepare(sql)
      // generated SQL (multi-row inserts) varies: keep the newest few hundred
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string)
      cache.set(sql, s)
    }
    return s
  }
  const execute = (s: Database.Statement, params: ReadonlyArray<unknown>, raw: boolean) =>
    Effect.try({
      try: (): ReadonlyArray<unknown> => {
        if (s.reader) return s.all(...params)
        const result = s.run(...params)
        return raw ? (result as unknown as ReadonlyArray<unknown>) : []
      },
      catch: sqlError
    })
  const prepared = (sql: string) => Effect.try({ try: () => statement(sql), catch: sqlError })
  const connection: Connection = {
    execute: (sql, params, transformRows) => {
      const rows = Effect.flatMap(prepared(sql), (s) => execute(s, params, false))
      return transformRows === undefined ? rows : Effect.map(rows, (r) => transformRows(r as ReadonlyArray<object>))
    },
    executeRaw: (sql, params) => Effect.flatMap(prepared(sql), (s) => execute(s, params, true)),
    executeValues: (sql, params) =>
      Effect.flatMap(prepared(sql), (s) =>
        Effect.try({
          try: () => {
            if (!s.reader) {
              s.run(...params)
              return []
            }
            try {
              return s.raw(true).all(...params) as ReadonlyArray<ReadonlyArray<unknown>>
            } finally {
              s.raw(false)
            }
          },
          catch: sqlError
        })),
    executeUnprepared: (sql, params, transformRows) => {
      // SQLite ends the transaction itself on some failures (SQLITE_FULL, SQLITE_IOERR, …): a
      // ROLLBACK then fails with "no transaction is active", and that defect would hide the
      // failure that matters
      if (!db.inTransaction && ROLLBACK.test(sql)) return Effect.succeed([])
      const rows = Effect.flatMap(Effect.try({ try: () => db.prepare(sql), catch: sqlError }), (s) => execute(s, params ?? [], false))
      return transformRows === undefined ? rows : Effect.map(rows, (r) => transformRows(r as ReadonlyArray<object>))
    },
    executeStream: () => Stream.die("executeStream is not used by the emulator")
  }

  // one connection: a transaction holds it from BEGIN to COMMIT, everything else takes it briefly
  const semaphore = yield* Effect.makeSemaphore(1)
  const sql = yield* SqlClient.make({
    acquirer: semaphore.withPermits(1)(Effect.succeed(connection)),
    transactionAcquirer: Effect.uninterruptibleMask((restore) =>
      Effect.as(
        Effect.zipRight(restore(semaphore.take(1)), Effect.tap(Effect.scope, (scope) => Scope.addFinalizer(scope, semaphore.release(1)))),
        connection
      )
    ),
    compiler: Statement.makeCompilerSqlite(),
    spanAttributes: [["db.system.name", "sqlite"]]
  })

  /** A transaction of another fiber is open on the connection: wait for it through the SqlClient. */
  const afterOpenTransaction = <A>(f: () => A, atomic: boolean) =>
    Effect.withFiberRuntime<A>((fiber) => {
      const ours = Option.isSome(Context.getOption(fiber.currentContext, SqlClient.TransactionConnection))
      if (ours) return atomic ? attempt(() => atomically(f)) : attempt(f)
      return Effect.orDie(sql.withTransaction(Effect.suspend(() => attempt(f))))
    })
  const use = <A>(f: () => A) => (db.inTransaction ? afterOpenTransaction(f, false) : attempt(f))
  const transaction = <A>(f: () => A) => (db.inTransaction ? afterOpenTransaction(f, true) : attempt(() => atomically(f)))
  const storage: StorageShape = {
    location: filename,
    ...(checkpointer === undefined ? {} : { checkpointer }),
    statement,
    use,
    transaction,
    clearNamespace: (namespace) =>
      transaction(() => {
        for (const table of schema.namespacedTables) statement(`DELETE FROM ${table} WHERE namespace = ?`).run(namespace)
      })
  }
  return { sql, storage }
}

/** Deletes one namespace's durable state (admin reset). */
export const clearNamespace = (namespace: string) => Effect.flatMap(Storage, (storage) => storage.clearNamespace(namespace))

/** The storage's services, open for the scope's life (a failure to open is a defect, but for an addon that cannot load). */
export const storageContext = (filename: string, schema: StorageSchema): Effect.Effect<Context.Context<Storage | SqlClient.SqlClient>, StorageOpenError, Scope.Scope> =>
  Effect.gen(() => storageWithTables(filename, schema)).pipe(Effect.provideServiceEffect(Reactivity.Reactivity, Reactivity.make))

export const StorageLive = (filename: string, schema: StorageSchema): Layer.Layer<Storage | SqlClient.SqlClient, StorageOpenError> =>
  Layer.scopedContext(storageContext(filename, schema))

/** Creates the schema's tables on a storage (each statement is idempotent). */
export const createTables = (storage: StorageShape, schema: StorageSchema): Effect.Effect<void> =>
  storage.use(() => {
    for (const ddl of schema.statements) storage.statement(ddl).run()
  })

/** The open storage with the schema's tables created, as the layer's services. */
function* storageWithTables(filename: string, schema: StorageSchema) {
  const { sql, storage } = yield* open(filename, schema)
  // a damaged schema page shows when the tables are first touched
  yield* createTables(storage, schema).pipe(
    Effect.catchAllDefect((e) => (isCorruption(e) ? Effect.fail(storageCorrupt(filename, sqliteMessage(e))) : Effect.die(e)))
  )
  return Context.make(Storage, storage).pipe(Context.add(SqlClient.SqlClient, sql))
}
