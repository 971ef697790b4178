/**
 * What can stop `oracle` before it has a verdict, as one tagged union. Every one exits 2: a
 * comparison that did not happen is neither a pass (0) nor a divergence (1).
 */
import { Data } from "effect"
import type { MergeError } from "../evidence/mergeEvidence.js"

/** A CLI problem that is the user's to fix (bad flag, missing file): reported with a hint to the command's help. */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string; readonly command?: string }> {}

/** `--out` already holds a REPORT.md from an earlier run; `--force` replaces it. */
export class ReportExists extends Data.TaggedError("ReportExists")<{ readonly path: string }> {
  override get message(): string {
    return `${this.path} exists (an earlier run's report): pass --force to replace it, or choose another --out`
  }
}

/** The oracle could not run: a launcher, the file system, a gateway or a cassette failed; the message says which. */
export class CouldNotRun extends Data.TaggedError("CouldNotRun")<{ readonly message: string }> {}

export type CliError = UsageError | ReportExists | MergeError | CouldNotRun

const isTagged = (e: unknown): e is { readonly _tag: string } => typeof e === "object" && e !== null && "_tag" in e

/** Any failure of a command as a CliError: the CLI's own stay as they are, the rest say what failed. */
export const toCliError = (e: unknown): CliError => {
  if (isTagged(e) && (e._tag === "UsageError" || e._tag === "ReportExists" || e._tag === "MergeError" || e._tag === "CouldNotRun")) return e as CliError
  return new CouldNotRun({ message: e instanceof Error ? e.message : isTagged(e) && "message" in e ? String(e.message) : String(e) })
}
