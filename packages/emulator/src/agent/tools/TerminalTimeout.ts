/**
 * The terminal tool's refusal of a foreground command whose explicit timeout is over Hermes
 * 0.19.0's cap (FOREGROUND_MAX_TIMEOUT: 600 s unless TERMINAL_MAX_FOREGROUND_TIMEOUT is set, which
 * the gateway never is here). It comes before anything runs or is asked, and its result holds only
 * the error: no exit_code, so a run reports the call as no failure (ToolFailure.ts). A timeout that
 * is no number leaves the command to run as before (upstream's comparison would raise instead).
 */
import { PyFloat, PyInt, pyDumps, pyStr, pyTruthy } from "../../python/index.js"

/** Seconds a foreground command may ask for. */
export const FOREGROUND_MAX_TIMEOUT = 600

const overCap = (timeout: unknown): boolean => {
  if (typeof timeout === "number") return timeout > FOREGROUND_MAX_TIMEOUT
  if (timeout instanceof PyInt) return timeout.value > BigInt(FOREGROUND_MAX_TIMEOUT)
  if (timeout instanceof PyFloat) return timeout.value > FOREGROUND_MAX_TIMEOUT
  return false
}

/** The refusal for these terminal arguments, or undefined when the command may run. */
export const foregroundTimeoutRefusal = (args: Record<string, unknown>): string | undefined => {
  const timeout = args["timeout"]
  if (pyTruthy(args["background"]) || !overCap(timeout)) return undefined
  const error = `Foreground timeout ${pyStr(timeout)}s exceeds the maximum of ${FOREGROUND_MAX_TIMEOUT}s. Use background=true with notify_on_complete=true for long-running commands.`
  return pyDumps({ error }, false)
}
