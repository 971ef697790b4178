/**
 * The one way this package runs one of its Effects for a Promise caller (`startGateway` and the
 * handle's methods; the container launcher until it is Effect code): the promise rejects with the
 * typed error itself (a PinUnavailable, a GatewayStartFailed…), not a fiber failure wrapping it.
 */
import { Cause, Effect, Exit } from "effect"

export const toPromise = async <A, E>(effect: Effect.Effect<A, E>): Promise<A> => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) return exit.value
  throw Cause.squash(exit.cause)
}
