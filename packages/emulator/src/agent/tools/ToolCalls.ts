/**
 * What an enabled tool answers the model, as the tools profile's real gateway does: `todo` for
 * real (TodoList), `terminal` for the `echo` commands it emulates (TerminalCommand), behind
 * Hermes' approval guard (DangerousCommands), unless its foreground timeout is over the cap
 * (TerminalTimeout):
 *
 * - a flagged command already approved for this approval session, or approved "always" on this
 *   gateway, runs without asking (and without an approval note);
 * - on /v1/runs (a notify callback is registered) the run waits for POST .../approval: approved →
 *   runs with the approval note; denied, timed out or stopped → a "blocked" result;
 * - elsewhere (chat, responses, session chat: no one to ask) → a "pending_approval" result and
 *   nothing runs.
 *
 * `process` answers as a gateway with no background process does (ProcessTool).
 *
 * Other enabled tools answer a fixed marker: the emulator has no behaviour for them.
 */
import type { Storage } from "../../services/Storage.js"
import { Effect } from "effect"
import type { ToolApproval } from "@hermetic/script"
import { pyDumps, pyStr } from "../../python/index.js"
import { detectDangerousCommand, type DangerousMatch } from "./DangerousCommands.js"
import { nonStringCommandResult, runTerminalCommand, terminalResult } from "./TerminalCommand.js"
import { callProcess } from "./ProcessTool.js"
import { foregroundTimeoutRefusal } from "./TerminalTimeout.js"
import { callTodo, type TodoList } from "./TodoList.js"
import type { ToolRaised } from "./ToolRaised.js"

/** The user's answer to an approval request, or "timeout" when none came in time. */
export type ApprovalChoice = "once" | "session" | "always" | "deny" | "timeout"

/** Approvals Hermes remembers: per approval session (a run's id) and, for "always", gateway-wide. */
export interface ApprovalMemory {
  readonly sessionApprovals: Map<string, Set<string>>
  readonly permanentApprovals: Set<string>
}

export interface ToolCallContext {
  readonly todo: TodoList
  readonly memory: ApprovalMemory
  /** The approval session (the run id on /v1/runs); absent where no one can be asked. */
  readonly approvalSession?: string
  /** Asks the user (runs only); absent → the pending_approval answer. */
  readonly ask?: (match: DangerousMatch) => Effect.Effect<ApprovalChoice, never, Storage>
}

/** What an enabled tool without emulated behaviour returns to the model. */
export const EMULATED_TOOL_RESULT = '{"success": true, "emulated": true}'

export interface ToolOutcome {
  readonly content: string
  /** The guard's match, when it stopped to ask. */
  readonly asked?: DangerousMatch
}

const refusal = (reason: string, addendum: string) =>
  `BLOCKED: Command ${reason}. The user has NOT consented to this action. Do NOT retry this command, do NOT rephrase it, and do NOT attempt the same outcome via a different command. Stop the current workflow and wait for the user to respond before taking any further destructive or irreversible action.${addendum}`

const blocked = (message: string): string => pyDumps({ output: "", exit_code: -1, error: message, status: "blocked" }, false)

const pending = (command: string, match: DangerousMatch): string =>
  pyDumps(
    {
      output: "",
      exit_code: -1,
      error: "",
      status: "pending_approval",
      approval_pending: true,
      command,
      description: match.description,
      pattern_key: match.patternKey,
      smart_denied: false,
      allow_permanent: true
    },
    false
  )

/** A Script's explicit approval marker wins; otherwise the guard's own detection on the command. */
const dangerOf = (command: string, marker: ToolApproval | undefined): DangerousMatch | undefined =>
  marker !== undefined
    ? { patternKey: marker.patternKey ?? "dangerous_command", description: marker.description ?? "dangerous command" }
    : detectDangerousCommand(command)

const isApproved = (memory: ApprovalMemory, session: string | undefined, key: string): boolean =>
  memory.permanentApprovals.has(key) || (session !== undefined && (memory.sessionApprovals.get(session)?.has(key) ?? false))

const remember = (memory: ApprovalMemory, session: string | undefined, key: string, choice: ApprovalChoice) => {
  if (choice !== "session" && choice !== "always") return
  if (session !== undefined) {
    const keys = memory.sessionApprovals.get(session) ?? new Set<string>()
    keys.add(key)
    memory.sessionApprovals.set(session, keys)
  }
  if (choice === "always") memory.permanentApprovals.add(key)
}

const terminal = (args: Record<string, unknown>, marker: ToolApproval | undefined, ctx: ToolCallContext) =>
  Effect.gen(() => runGuardedTerminal(args, marker, ctx))

function* runGuardedTerminal(args: Record<string, unknown>, marker: ToolApproval | undefined, ctx: ToolCallContext) {
  const notAString = marker === undefined ? nonStringCommandResult(args["command"]) : undefined
  if (notAString !== undefined) return { content: notAString } satisfies ToolOutcome
  // the tool refuses an over-long foreground timeout before its approval guard looks at the command
  const timeoutRefusal = foregroundTimeoutRefusal(args)
  if (timeoutRefusal !== undefined) return { content: timeoutRefusal } satisfies ToolOutcome
  const command = marker?.command ?? pyStr(args["command"] ?? "")
  const match = dangerOf(command, marker)
  if (match === undefined || isApproved(ctx.memory, ctx.approvalSession, match.patternKey)) {
    return { content: terminalResult(runTerminalCommand(command)) } satisfies ToolOutcome
  }
  if (ctx.ask === undefined) return { content: pending(command, match) } satisfies ToolOutcome
  const choice = yield* ctx.ask(match)
  if (choice === "deny") return { content: blocked(refusal("denied by user", "")), asked: match } satisfies ToolOutcome
  if (choice === "timeout") {
    return { content: blocked(refusal("timed out without user response", " Silence is not consent.")), asked: match } satisfies ToolOutcome
  }
  remember(ctx.memory, ctx.approvalSession, match.patternKey, choice)
  const note = `Command required approval (${match.description}) and was approved by the user.`
  return { content: terminalResult(runTerminalCommand(command), note), asked: match } satisfies ToolOutcome
}

/** One enabled tool called with its parsed arguments (ToolArguments.ts). */
export const callTool = (
  name: string,
  args: Record<string, unknown>,
  marker: ToolApproval | undefined,
  ctx: ToolCallContext
): Effect.Effect<ToolOutcome, ToolRaised, Storage> => {
  if (name === "terminal" || marker !== undefined) return terminal(args, marker, ctx)
  if (name === "todo") return Effect.map(callTodo(ctx.todo, args), (content) => ({ content }))
  if (name === "process") return Effect.succeed({ content: callProcess(args) })
  return Effect.succeed({ content: EMULATED_TOOL_RESULT })
}
