/** The gateway as a resource of the CLI's scope: stopped when the command ends, fails or is interrupted (SIGINT/SIGTERM). */
import { Effect } from "effect"
import { type GatewayHandle, type GatewayOptions, startGateway } from "../gateway/Gateway.js"

export const progress = (line: string) => process.stderr.write(`[oracle-runner] ${line}\n`)

export const scopedCliGateway = (options: GatewayOptions, onStopped: () => Promise<void> = async () => {}) =>
  Effect.acquireRelease(
    // the runner's own errors (PinUnavailable, GatewayStartFailed, …) keep their class for the exit code
    Effect.tryPromise({ try: () => startGateway({ ...options, progress }), catch: (e) => e }),
    (gw: GatewayHandle) =>
      Effect.promise(async () => {
        progress("stopping")
        await gw.stop().catch((e: unknown) => progress(`stop failed: ${String(e)}`))
        await onStopped()
        progress("stopped")
      })
  )
