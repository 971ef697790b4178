/**
 * The control-plane contract shared by the emulator and the fake model: the reserved prefix, the
 * namespace header, and the request and answer bodies of the five stable routes
 *
 *   POST /__admin/script               a Script                        → ScriptAppended
 *   POST /__admin/holds/{name}/release                                 → HoldReleased
 *   POST /__admin/clock                ClockCommand                    → ClockMoved
 *   POST /__admin/restart                                              → Restarted
 *   POST /__admin/reset                                                → ResetDone
 *
 * Errors on any of them are `{"error": {"message", "type": "hermetic_admin_error"}}` (AdminError).
 */
import { Schema } from "effect"

export const ADMIN_PREFIX = "/__admin"
export const NAMESPACE_HEADER = "x-hermetic-namespace"
export const DEFAULT_NAMESPACE = "default"

export const isAdminPath = (path: string): boolean => path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`)

/** `/holds/{name}/release` under the prefix: the hold's name, or undefined for another path. */
export const holdReleaseName = (pathUnderPrefix: string): string | undefined => {
  const m = /^\/holds\/([^/]+)\/release$/.exec(pathUnderPrefix)
  if (m?.[1] === undefined) return undefined
  try {
    return decodeURIComponent(m[1])
  } catch {
    return undefined
  }
}
export const holdReleasePath = (name: string): string => `${ADMIN_PREFIX}/holds/${encodeURIComponent(name)}/release`

export const ScriptAppended = Schema.Struct({
  /** Turns this request appended. */
  appended: Schema.Number,
  /** Turns waiting in the namespace's queue after it. */
  pendingTurns: Schema.Number
})
export type ScriptAppended = typeof ScriptAppended.Type

export const HoldReleased = Schema.Struct({
  hold: Schema.String,
  /** Model calls that were waiting on the hold and now go on (0: remembered for a later call). */
  releasedCalls: Schema.Number
})
export type HoldReleased = typeof HoldReleased.Type

export const ClockCommand = Schema.Union(
  Schema.Struct({ set: Schema.Number }),
  Schema.Struct({ advance: Schema.Number }),
  Schema.Struct({ freeze: Schema.Boolean })
)
export type ClockCommand = typeof ClockCommand.Type

export const ClockMoved = Schema.Struct({ now: Schema.Number })
export type ClockMoved = typeof ClockMoved.Type

export const Restarted = Schema.Struct({ restarted: Schema.Literal(true) })
export type Restarted = typeof Restarted.Type

export const ResetDone = Schema.Struct({ reset: Schema.Literal(true) })
export type ResetDone = typeof ResetDone.Type

export const AdminError = Schema.Struct({
  error: Schema.Struct({ message: Schema.String, type: Schema.Literal("hermetic_admin_error") })
})
export type AdminError = typeof AdminError.Type

export const adminError = (message: string): AdminError => ({ error: { message, type: "hermetic_admin_error" } })
