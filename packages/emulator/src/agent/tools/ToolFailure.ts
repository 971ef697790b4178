/**
 * Whether a tool result reads as a failure (`_detect_tool_failure`, 0.19.0): what a run's
 * tool.completed reports as `error`, and what feeds the tool-loop guardrails. A terminal result fails
 * on a non-zero exit code only; any other result fails when it is a JSON object with a truthy
 * "error" (or "message" beside `"success": false`), or when its first 500 characters, lower-cased,
 * hold "error" or "failed" in double quotes, or it starts with "Error".
 */
import { isDict, pyJsonLoads, pyPrefix, pyTruthy, toHandlerValue } from "../../python/index.js"
import { PyFloat, PyInt } from "../../python/index.js"

const jsonObject = (result: string): Record<string, unknown> | undefined => {
  const parsed = pyJsonLoads(result)
  if (parsed._tag === "Left") return undefined
  const value = toHandlerValue(parsed.right)
  return isDict(value) ? value : undefined
}

/** Python's `x != 0` for a JSON value: numbers (and booleans) compare by value, anything else differs. */
const nonZero = (v: unknown): boolean => {
  if (typeof v === "number") return v !== 0
  if (typeof v === "boolean") return v
  if (v instanceof PyInt) return v.value !== 0n
  if (v instanceof PyFloat) return v.value !== 0
  return true
}

export const toolResultFailed = (name: string, result: string): boolean => {
  const data = jsonObject(result)
  if (name === "terminal") {
    const exitCode = data?.["exit_code"]
    return exitCode !== undefined && exitCode !== null && nonZero(exitCode)
  }
  if (data !== undefined) {
    const err = pyTruthy(data["error"]) ? data["error"] : data["message"]
    if (pyTruthy(err) && (data["success"] === false || "error" in data)) return true
  }
  const head = pyPrefix(result, 500).toLowerCase()
  return head.includes("\"error\"") || head.includes("\"failed\"") || result.startsWith("Error")
}
