/**
 * What an armed fault does to the request it fires on (services/Faults.ts arms and consumes them):
 * the answer it puts in the handler's place, the stream it cuts short, and the label the journal records for it. Emulator
 * machinery with no gateway counterpart, so it sits outside the mutation score's scope.
 */
import type { EmuResponse } from "../http/Exchange.js"
import { jsonResponse } from "../http/Exchange.js"
import type { FaultRule } from "./Faults.js"

/** The answer a fired rule gives instead of the route's, or undefined when it only adds latency or cuts a stream. */
export const faultResponse = (rule: FaultRule): EmuResponse | undefined => {
  if (rule.drop === true) return { status: 0, headers: [], body: { _tag: "drop" } }
  if (rule.status === undefined) return undefined
  const body = rule.body ?? {
    error: { message: "Injected fault", type: "server_error", param: null, code: "hermetic_fault" }
  }
  return jsonResponse(body, rule.status, Object.entries(rule.headers ?? {}))
}

/**
 * The answer as a disconnect fault lets it out: a stream cut after the rule's frame count
 * (disconnectAfterFrames; the adapters end the connection there), any other answer untouched.
 */
export const faultCut = (rule: FaultRule | undefined, res: EmuResponse): EmuResponse => {
  const limit = rule?.disconnectAfterFrames
  return limit !== undefined && res.body._tag === "sse" ? { ...res, body: { ...res.body, disconnectAfter: limit } } : res
}

/** What the journal says about a fault that fired: its kind, never its body. */
export const faultLabel = (rule: FaultRule | undefined): string | null => {
  if (rule === undefined) return null
  const kinds = [
    rule.drop === true ? "drop" : undefined,
    rule.status === undefined ? undefined : `status ${rule.status}`,
    rule.latencyMs === undefined ? undefined : `latency ${rule.latencyMs} ms`,
    rule.disconnectAfterFrames === undefined ? undefined : `disconnect after ${rule.disconnectAfterFrames} frames`
  ].filter((k) => k !== undefined)
  return kinds.join(", ")
}
