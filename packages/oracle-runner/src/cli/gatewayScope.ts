/** The gateway as a resource of the CLI's scope: stopped when the command ends, fails or is interrupted (SIGINT/SIGTERM). */
import { Effect, Exit, Scope } from "effect"
import type { Gateway, GatewayOptions } from "../gateway/Gateway.js"
import { scopedGateway } from "../gateway/GatewayResource.js"

export const progress = (line: string) => process.stderr.write(`[oracle-runner] ${line}\n`)

/** The runner's own errors (PinUnavailable, GatewayStartFailed, …) stay typed for the exit code; `onStopped` runs once the gateway is gone. */
export const scopedCliGateway = (options: GatewayOptions, onStopped: Effect.Effect<void> = Effect.void) =>
  Effect.map(
    Effect.acquireRelease(
      // the gateway in a scope of its own, so that "stopped" and `onStopped` come after everything it held is released
      Effect.gen(function*() {
        const scope = yield* Scope.make()
        const gateway = yield* Scope.extend(scopedGateway({ ...options, progress }), scope).pipe(
          Effect.onExit((exit) => (Exit.isFailure(exit) ? Scope.close(scope, exit) : Effect.void))
        )
        return { gateway, scope }
      }),
      ({ scope }) =>
        Effect.sync(() => progress("stopping")).pipe(
          Effect.zipRight(Scope.close(scope, Exit.void)),
          Effect.zipRight(onStopped),
          Effect.zipRight(Effect.sync(() => progress("stopped")))
        )
    ),
    (held): Gateway => held.gateway
  )
