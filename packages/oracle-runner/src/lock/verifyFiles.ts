/** Compares files under a package root with the SHA-256 digests a pin lists in source-lock.json. */
import { createHash } from "node:crypto"
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { LockMismatch } from "../errors.js"
import type { Pin } from "./SourceLock.js"

export const sha256File = async (path: string): Promise<string | null> => {
  try {
    return createHash("sha256").update(await readFile(path)).digest("hex")
  } catch {
    return null
  }
}

export type FileCheck = { readonly file: string; readonly expected: string; readonly actual: string | null }

export const checkFiles = async (root: string, pin: Pin): Promise<ReadonlyArray<FileCheck>> =>
  Promise.all(
    Object.entries(pin.files).map(async ([file, expected]) => ({ file, expected, actual: await sha256File(join(root, file)) }))
  )

/** Resolves when every listed file matches; otherwise rejects with LockMismatch. */
export const verifyFiles = async (root: string, pinName: string, pin: Pin): Promise<void> => {
  const mismatches = (await checkFiles(root, pin)).filter((c) => c.actual !== c.expected)
  if (mismatches.length > 0) throw new LockMismatch({ pin: pinName, mismatches })
}
