/**
 * The `terminal` tool's answer for the commands the tools profile scripts: `echo` of plain words
 * in the scratch directory, whose output is known without running a shell (Hermes strips the
 * trailing newline). The emulator runs no shell: anything else answers with an explicit
 * "not emulated" error, so a scenario that strays shows up as a divergence, never as a silent pass.
 */
import { pyDumps, pyTypeName } from "../../python/index.js"

/** A word the shell passes through unchanged: no quoting, expansion, globbing or operators. */
const PLAIN_WORD = /^[A-Za-z0-9_.,:+=@%/-]+$/

/** The words of `echo w1 w2 …`, or undefined when the command is anything else. */
export const plainEchoWords = (command: string): ReadonlyArray<string> | undefined => {
  const words = command.trim().split(/[ \t]+/)
  if (words[0] !== "echo" || words.length < 2) return undefined
  const rest = words.slice(1)
  return rest.every((w) => PLAIN_WORD.test(w) && !w.startsWith("-")) ? rest : undefined
}

export interface TerminalOutcome {
  readonly output: string
  readonly exitCode: number
  readonly error: string | null
}

export const runTerminalCommand = (command: string): TerminalOutcome => {
  const words = plainEchoWords(command)
  return words === undefined
    ? { output: "", exitCode: -1, error: `hermetic emulator: only 'echo' of plain words is emulated, not: ${command}` }
    : { output: words.join(" "), exitCode: 0, error: null }
}

/** The result JSON of a command that ran (with the approval note when the user approved it). */
export const terminalResult = (outcome: TerminalOutcome, approvalNote?: string): string =>
  pyDumps(
    {
      output: outcome.output,
      exit_code: outcome.exitCode,
      error: outcome.error,
      ...(approvalNote !== undefined ? { approval: approvalNote } : {})
    },
    false
  )

/**
 * The tool's refusal of a command that is not a string (absent, null, a number, a list…): checked
 * before anything else, the timeout cap and the approval guard included (observed live on 0.19.0:
 * `read_terminal` repaired to `terminal` with no command). Undefined for a string command.
 */
export const nonStringCommandResult = (command: unknown): string | undefined =>
  typeof command === "string"
    ? undefined
    : pyDumps({ output: "", exit_code: -1, error: `Invalid command: expected string, got ${pyTypeName(command)}`, status: "error" }, false)
