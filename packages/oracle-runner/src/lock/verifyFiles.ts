/** Compares files under a package root with the SHA-256 digests a pin lists in source-lock.json. */
import { createHash } from "node:crypto"
import { FileSystem, Path } from "@effect/platform"
import { Effect } from "effect"
import { LockMismatch } from "../errors.js"
import type { Pin } from "./SourceLock.js"

/** The file's SHA-256, or null when it cannot be read. */
export const sha256File = (path: string): Effect.Effect<string | null, never, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFile(path)).pipe(
    Effect.map((bytes) => createHash("sha256").update(bytes).digest("hex")),
    Effect.orElseSucceed(() => null)
  )

export type FileCheck = { readonly file: string; readonly expected: string; readonly actual: string | null }

export const checkFiles = (root: string, pin: Pin): Effect.Effect<ReadonlyArray<FileCheck>, never, FileSystem.FileSystem | Path.Path> =>
  Effect.flatMap(Path.Path, (path) =>
    Effect.forEach(
      Object.entries(pin.files),
      ([file, expected]) => Effect.map(sha256File(path.join(root, file)), (actual) => ({ file, expected, actual })),
      { concurrency: 8 }
    ))

/** Succeeds when every listed file matches; otherwise fails with LockMismatch. */
export const verifyFiles = (root: string, pinName: string, pin: Pin): Effect.Effect<void, LockMismatch, FileSystem.FileSystem | Path.Path> =>
  Effect.flatMap(checkFiles(root, pin), (checks) => {
    const mismatches = checks.filter((c) => c.actual !== c.expected)
    return mismatches.length > 0 ? Effect.fail(new LockMismatch({ pin: pinName, mismatches })) : Effect.void
  })
