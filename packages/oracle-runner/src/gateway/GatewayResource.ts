/**
 * The gateway as an Effect scoped resource: acquired with startGateway, released with stop() when
 * the scope closes (success, failure or interruption). Failures are the typed OracleErrors; any
 * other exception is a defect.
 */
import { Context, Effect, Layer } from "effect"
import { GatewayStartFailed, LockMismatch, MissingTool, PinUnavailable, type OracleError } from "../errors.js"
import { startGateway, type GatewayHandle, type GatewayOptions } from "./Gateway.js"

const asOracleError = (e: unknown): OracleError | null =>
  e instanceof PinUnavailable || e instanceof LockMismatch || e instanceof MissingTool || e instanceof GatewayStartFailed ? e : null

export const acquireGateway = (options: GatewayOptions = {}): Effect.Effect<GatewayHandle, OracleError> =>
  Effect.tryPromise({ try: () => startGateway(options), catch: (e) => e }).pipe(
    Effect.catchAll((e) => {
      const typed = asOracleError(e)
      return typed ? Effect.fail(typed) : Effect.die(e)
    })
  )

/** A gateway that lives as long as the enclosing Scope. */
export const scopedGateway = (options: GatewayOptions = {}) =>
  Effect.acquireRelease(acquireGateway(options), (gw) => Effect.promise(() => gw.stop()))

/** Service tag for programs that want the gateway from their environment. */
export class RealGateway extends Context.Tag("@hermetic/oracle-runner/RealGateway")<RealGateway, GatewayHandle>() {}

export const RealGatewayLayer = (options: GatewayOptions = {}): Layer.Layer<RealGateway, OracleError> =>
  Layer.scoped(RealGateway, scopedGateway(options))

/** Plain Promise wrapper: runs `use` with a started gateway and always stops it afterwards. */
export const withGateway = async <A>(options: GatewayOptions, use: (gw: GatewayHandle) => Promise<A>): Promise<A> => {
  const gw = await startGateway(options)
  try {
    return await use(gw)
  } finally {
    await gw.stop()
  }
}
