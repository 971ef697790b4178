/**
 * The container as a scoped Effect, for Effect programs and `@effect/vitest` (`it.scoped`,
 * `Layer.scoped`): started when acquired, stopped and removed when the scope closes, whether the
 * program succeeded, failed or was interrupted. A failed start is a typed error, not a defect.
 */
import { Data, Effect, type Scope } from "effect"
import type { HermesEmulatorContainer } from "./HermesEmulatorContainer.js"
import type { StartedHermesEmulatorContainer } from "./StartedHermesEmulatorContainer.js"

/** The container did not start or did not become healthy (its reason in `message`). */
export class ContainerStartFailed extends Data.TaggedError("ContainerStartFailed")<{ readonly message: string; readonly cause: unknown }> {}

export const startedContainer = (
  container: HermesEmulatorContainer
): Effect.Effect<StartedHermesEmulatorContainer, ContainerStartFailed, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => container.start(),
      catch: (cause) => new ContainerStartFailed({ message: `hermes-emulator container ${container.image}: ${cause instanceof Error ? cause.message : String(cause)}`, cause })
    }),
    (started) => Effect.promise(() => started.stop())
  )
