/**
 * The replaceable services: `Emulator.layer` takes Storage, Faults, Ids and Agent from its context
 * when a user provided them, and builds its default otherwise. Reading the context costs one
 * lookup per service; a layer per default would add a node to the layer graph per service, which
 * the start pays for (docs/performance.md, "Cold start").
 */
import { SqlClient } from "@effect/sql"
import { Context, Effect, Option, type Scope } from "effect"
import { createTables, Storage, storageContext, StorageLive, type StorageOpenError } from "./services/Storage.js"
import { STORAGE_SCHEMA } from "./StorageSchema.js"

/** The context's service when there is one, else `make()`. */
export const providedOr = <I, S>(tag: Context.Tag<I, S>, make: () => S): Effect.Effect<S> =>
  Effect.map(Effect.serviceOption(tag), Option.getOrElse(make))

/**
 * The context's Storage and SqlClient (one database: a Storage comes with its SqlClient), with the
 * emulator's tables created on it; else the emulator's own storage at `filename`.
 */
export const providedStorage = (
  filename: string
): Effect.Effect<Context.Context<Storage | SqlClient.SqlClient>, StorageOpenError, Scope.Scope> =>
  Effect.flatMap(Effect.serviceOption(Storage), (provided) => {
    if (Option.isNone(provided)) return storageContext(filename, STORAGE_SCHEMA)
    return Effect.flatMap(Effect.serviceOption(SqlClient.SqlClient), (sql) =>
      Option.isNone(sql)
        ? Effect.dieMessage("a Storage provided to the emulator needs the SqlClient on the same database beside it")
        : Effect.as(createTables(provided.value, STORAGE_SCHEMA), Context.make(Storage, provided.value).pipe(Context.add(SqlClient.SqlClient, sql.value))))
  })

/** The emulator's storage as a layer to provide in its place: a SQLite file at `filename` (`:memory:` for none), with the emulator's tables. */
export const storageLayer = (filename: string) => StorageLive(filename, STORAGE_SCHEMA)
