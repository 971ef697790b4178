/**
 * Hermes' tool-loop guardrails as the API server runs them (0.19.0 `ToolCallGuardrailController`
 * with its defaults: warnings on, hard stops off), one controller per agent turn. A failed call
 * counts against its exact arguments and against its tool; the result then carries a warning once
 * the same arguments failed twice, or else once the tool failed three times in the turn. A success
 * clears its arguments' count and its tool's count. Nothing is ever blocked with hard stops off.
 *
 * The no-progress warning for read-only tools (read_file, web_search, …) is not modelled: the tools
 * profile enables none of them (TOOLS_PROFILE_TOOLSETS), so no recording could judge it.
 */
import { pyDumps } from "../../python/index.js"

const EXACT_FAILURE_WARN_AFTER = 2
const SAME_TOOL_FAILURE_WARN_AFTER = 3

const warning = (code: string, count: number, message: string): string =>
  `\n\n[Tool loop warning: ${code}; count=${count}; ${message}]`

const recoveryHint = (tool: string, count: number): string => {
  const common = `${tool} has failed ${count} times this turn. This looks like a loop. ` +
    "Do not switch to text-only replies; keep using tools, but diagnose before retrying. " +
    "First inspect the latest error/output and verify your assumptions. "
  return common + (tool === "terminal"
    ? "For terminal failures, run a small diagnostic such as `pwd && ls -la` " +
      "in the same tool, then try an absolute path, a simpler command, a different " +
      "working directory, or a different tool such as read_file/write_file/patch."
    : "Try different arguments, a narrower query/path, an absolute path when relevant, " +
      "or a different tool that can make progress. If the blocker is external, report " +
      "the blocker after one diagnostic attempt instead of repeating the same failing path.")
}

export class ToolLoopGuardrails {
  private readonly exactFailures = new Map<string, number>()
  private readonly toolFailures = new Map<string, number>()

  /** The result as the model gets it after the call is observed: with a warning appended when one is due. */
  observe(tool: string, args: Record<string, unknown>, result: string, failed: boolean): string {
    // the call's identity: its name and its arguments as sorted JSON (equal dicts, equal keys)
    const signature = `${tool}\u0000${pyDumps(args, false, true)}`
    if (!failed) {
      this.exactFailures.delete(signature)
      this.toolFailures.delete(tool)
      return result
    }
    const exact = (this.exactFailures.get(signature) ?? 0) + 1
    this.exactFailures.set(signature, exact)
    const same = (this.toolFailures.get(tool) ?? 0) + 1
    this.toolFailures.set(tool, same)
    if (exact >= EXACT_FAILURE_WARN_AFTER) {
      return result + warning(
        "repeated_exact_failure_warning",
        exact,
        `${tool} has failed ${exact} times with identical arguments. This looks like a loop; inspect the error and change strategy instead of retrying it unchanged.`
      )
    }
    if (same >= SAME_TOOL_FAILURE_WARN_AFTER) return result + warning("same_tool_failure_warning", same, recoveryHint(tool, same))
    return result
  }
}
