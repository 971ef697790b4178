/** One request the emulator answered, as the verification journal keeps it (services/Journal.ts). */
import type { CapturedRequest } from "./RequestCapture.js"
import type { ModelCall } from "./ModelCalls.js"

export interface JournalEntry {
  /** Increasing over the emulator's life: `since` queries use it. */
  readonly id: number
  readonly at: number
  readonly namespace: string
  readonly method: string
  readonly path: string
  /** The route's operation id (`runs.create`), "admin" for the control plane, null when no route matched. */
  readonly operation: string | null
  /** The response status; null while the request is still being answered. */
  readonly status: number | null
  readonly durationMs: number | null
  readonly fault: string | null
  /** The session the request named or was answered under (X-Hermes-Session-Id), if any. */
  readonly session: string | null
  /** Headers and body (redacted, bounded): only with bodies on. */
  readonly request?: CapturedRequest
  /** The model calls the agent made for this request, in order: only with bodies on. */
  readonly modelCalls: ReadonlyArray<ModelCall>
}
