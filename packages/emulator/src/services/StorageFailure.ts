/**
 * A request that failed because storage did (a corrupt page, a full disk, a read-only file): the
 * emulator answers it with aiohttp's bare 500 as any crash, and says on stderr, once per request,
 * what SQLite reported and where the data lives; before, such a 500 left no trace but a journal
 * entry without status. A failed statement reaches the request as a defect: better-sqlite3's
 * SqliteError itself (the lean door), or wrapped in @effect/sql's SqlError (the SqlClient door).
 */
import { basename, dirname } from "node:path"

/** What SQLite reported: its result code (SQLITE_CORRUPT, SQLITE_FULL, …) and message. */
export interface StorageFailure {
  readonly code: string
  readonly message: string
}

const sqliteError = (e: unknown): StorageFailure | undefined => {
  if (typeof e !== "object" || e === null) return undefined
  const { code, message } = e as { readonly code?: unknown; readonly message?: unknown }
  return typeof code === "string" && code.startsWith("SQLITE_") ? { code, message: typeof message === "string" ? message : "" } : undefined
}

/** The SQLite failure a defect carries (itself, or as its cause, as @effect/sql wraps it), if any. */
export const storageFailureOf = (defect: unknown): StorageFailure | undefined =>
  sqliteError(defect) ?? (typeof defect === "object" && defect !== null ? sqliteError((defect as { readonly cause?: unknown }).cause) : undefined)

/** Where the data lives, worded for an operator: the data dir and its file, or memory. */
export const whereStored = (filename: string | undefined): string =>
  filename === undefined ? "in a storage provided to the emulator" : filename === ":memory:" ? "in memory (no data dir)" : `in data dir ${dirname(filename)} (file ${basename(filename)})`

/** The one stderr line for a request that storage failed (no newline inside: a message may carry one). */
export const storageFailureLine = (failure: StorageFailure, filename: string | undefined, request: string): string =>
  `hermes-emulator: storage failed ${whereStored(filename)} answering ${request}: ${failure.code}: ${failure.message.replace(/\s+/g, " ")}; the request got a 500\n`

/** The stderr line for any other crash that a request turned into a 500. */
export const crashLine = (defect: unknown, request: string): string => {
  const text = defect instanceof Error ? `${defect.name}: ${defect.message}` : String(defect)
  return `hermes-emulator: internal error answering ${request}: ${text.replace(/\s+/g, " ").slice(0, 500)}; the request got a 500\n`
}
