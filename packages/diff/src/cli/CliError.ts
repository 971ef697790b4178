/** A CLI problem that is the user's to fix (bad flag, missing file): reported with a hint, exit 2. */
import { Data } from "effect"

export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}
