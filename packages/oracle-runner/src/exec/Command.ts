/**
 * execa at its edge: the runner's only door to child processes. A finished command is a value
 * (its exit code and output), never a rejection; a spawned long-lived child is a scoped resource
 * whose release kills it. Callers decide which exit codes are their typed errors.
 */
import { Effect } from "effect"
import { execa } from "execa"

export interface CommandResult {
  /** undefined when the command could not be started (e.g. not found) or was killed. */
  readonly exitCode: number | undefined
  readonly stdout: string
  /** stdout and stderr interleaved. */
  readonly all: string
}

export interface CommandOptions {
  readonly cwd?: string
  readonly env?: Record<string, string>
  readonly timeoutMs?: number
  /** Each non-blank output line as it arrives (pip is slow; people want to see it move). */
  readonly onLine?: (line: string) => void
}

/** Runs a command to its end. Interruption kills it. */
export const runCommand = (cmd: string, args: ReadonlyArray<string>, options: CommandOptions = {}): Effect.Effect<CommandResult> =>
  Effect.promise((signal) => {
    const child = execa(cmd, args, {
      all: true,
      reject: false,
      cancelSignal: signal,
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      ...(options.env !== undefined ? { env: options.env } : {}),
      ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {})
    })
    const onLine = options.onLine
    if (onLine !== undefined) {
      child.all.on("data", (b: Buffer) => {
        for (const line of b.toString().split("\n")) if (line.trim() !== "") onLine(line.trim())
      })
    }
    return child.then((r) => ({ exitCode: r.exitCode, stdout: String(r.stdout), all: String(r.all) }))
  })

/** The end of a failed command's output, for an error message. */
export const outputTail = (r: CommandResult, chars = 3000): string => r.all.slice(-chars)

/** A child process left running (what the runner needs of execa's handle: its pid, and a promise of its end). */
export interface RunningChild extends PromiseLike<{ readonly exitCode?: number | undefined; readonly signal?: string | undefined }> {
  readonly pid?: number | undefined
}

/** Starts a long-lived child; `spawn` is the execa call (options are the caller's). */
export const spawnChild = (spawn: () => RunningChild): Effect.Effect<RunningChild> => Effect.sync(spawn)

/** Resolves when the child has exited; true when it did within `ms`. */
export const awaitExit = (child: RunningChild, ms: number): Effect.Effect<boolean> =>
  Effect.promise(() => Promise.resolve(child).then(() => true)).pipe(Effect.timeoutTo({ duration: ms, onTimeout: () => false, onSuccess: (done) => done }))
