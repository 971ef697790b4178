/** What ends a hermes-emulator command early: a usage error (exit 2) or a server that could not start (exit 1). */
import { Data } from "effect"

export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string; readonly help?: string }> {}
export class StartFailed extends Data.TaggedError("StartFailed")<{ readonly message: string }> {}

/** A failed start, worded for the command line (a port in use says how to pick another). */
export const startFailed = (e: unknown): StartFailed => {
  const err = e as NodeJS.ErrnoException
  return new StartFailed({
    message: err.code === "EADDRINUSE" ? `port already in use (${err.message}); pick another with --port` : (err.message ?? String(e))
  })
}
