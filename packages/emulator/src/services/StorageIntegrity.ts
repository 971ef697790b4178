/**
 * A data dir's database found damaged at start: the start stops, naming the file and how to
 * recover, and leaves the file as it is (it may be the only copy of what a user wants back).
 *
 * `PRAGMA quick_check` reads every page, so its cost grows with the file: measured by
 * bench/quick-check.ts, about 29 ms at 1k sessions (2.5 MiB) and 253 ms at 10k (24 MiB), against
 * about 12 ms for the open itself. It therefore runs only when the last process on the file did
 * not close it: SQLite removes the write-ahead log (`<file>-wal`) when the last connection closes
 * cleanly, so a log still there at open means a killed process, a crashed machine or a full disk,
 * the cases that leave damage behind. A file damaged while closed (a bad disk, a stray write) is
 * found by the first request that reads the damaged page: that request answers 500 and says so on
 * stderr (StorageFailure.ts). A file that is no database at all, or whose first pages are
 * damaged, fails the open itself and gets the same message.
 */
import { Data } from "effect"
import { existsSync } from "node:fs"

export class StorageCorrupt extends Data.TaggedError("StorageCorrupt")<{
  readonly file: string
  readonly message: string
}> {}

/** Whether the last process on `file` left without closing it (its write-ahead log is still there). */
export const closedUncleanly = (file: string): boolean => existsSync(`${file}-wal`)

/** SQLite's codes for a file that is damaged or not a database. */
export const isCorruption = (e: unknown): boolean => {
  const code = typeof e === "object" && e !== null ? (e as { readonly code?: unknown }).code : undefined
  return code === "SQLITE_CORRUPT" || code === "SQLITE_NOTADB" || (typeof code === "string" && code.startsWith("SQLITE_CORRUPT_"))
}

/** SQLite's code and message, as one line. */
export const sqliteMessage = (e: unknown): string => {
  const { code, message } = e as { readonly code?: unknown; readonly message?: unknown }
  return `${String(code)}: ${String(message)}`
}

/** The start's refusal: what is wrong with which file, and the two ways back. */
export const storageCorrupt = (file: string, problem: string): StorageCorrupt =>
  new StorageCorrupt({
    file,
    message: [
      `the data dir's database ${file} is damaged (${problem}); it was left as it is.`,
      `To start anyway: stop every emulator using it, move it aside (mv ${file} ${file}.damaged, and the same for ${file}-wal and ${file}-shm where present) and start again on the emptied data dir,`,
      `or restore the file from a backup, or start on an empty data dir with --snapshot FILE from a saved snapshot.`
    ].join(" ")
  })

/** What `PRAGMA quick_check` reported, as one short line (it lists up to 100 problems). */
export const quickCheckProblems = (rows: ReadonlyArray<unknown>): string | undefined => {
  const lines = rows.map((r) => String(Object.values(r as Record<string, unknown>)[0]).replace(/\s+/g, " ").trim())
  if (lines.length === 1 && lines[0] === "ok") return undefined
  const shown = lines.slice(0, 3).join("; ")
  return `quick_check: ${shown}${lines.length > 3 ? `; and ${lines.length - 3} more` : ""}`
}
