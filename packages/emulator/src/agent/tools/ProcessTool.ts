/**
 * The terminal toolset's `process` tool (0.19.0's process registry), on an emulated gateway that
 * never starts a background process (TerminalCommand runs echo in the foreground only): `list`
 * is always empty and every id-taking action finds no process. Its progress label is the
 * registry preview's own branch, never the fallback keys of tools without a primary argument.
 */
import { pyDumps, pyPrefix, pyStr, pyTruthy } from "../../python/index.js"
import { oneLine } from "./OneLine.js"
import { toolError } from "./TodoList.js"

const ID_ACTIONS: ReadonlySet<unknown> = new Set(["poll", "log", "wait", "kill", "write", "submit", "close"])

/** The process preview: action, session id (16), quoted data (20, then collapsed), a wait's timeout; undefined when all are blank. */
export const processLabel = (args: Record<string, unknown>): string | undefined => {
  const action = args["action"] ?? ""
  const parts = [pyTruthy(action) ? pyStr(action) : ""]
  if (pyTruthy(args["session_id"] ?? "")) parts.push(pyPrefix(pyStr(args["session_id"]), 16))
  if (pyTruthy(args["data"] ?? "")) parts.push(`"${oneLine(pyPrefix(pyStr(args["data"]), 20))}"`)
  if (pyTruthy(args["timeout"]) && action === "wait") parts.push(`${pyStr(args["timeout"])}s`)
  const shown = parts.filter((p) => p !== "")
  return shown.length > 0 ? shown.join(" ") : undefined
}

/** What the process tool answers the model. */
export const callProcess = (args: Record<string, unknown>): string => {
  const action = args["action"] ?? ""
  // the session id is coerced with str() (models send integers); null counts as absent
  const sessionId = args["session_id"] === undefined || args["session_id"] === null ? "" : pyStr(args["session_id"])
  if (action === "list") return pyDumps({ processes: [] }, false)
  if (ID_ACTIONS.has(action)) {
    if (sessionId === "") return toolError(`session_id is required for ${pyStr(action)}`)
    return pyDumps({ status: "not_found", error: `No process with ID ${sessionId}` }, false)
  }
  return toolError(`Unknown process action: ${pyStr(action)}. Use: list, poll, log, wait, kill, write, submit, close`)
}
