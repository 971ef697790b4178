/**
 * What the fake model's control plane can do to the gateway behind it. The oracle runner attaches
 * these once the gateway is up, so `POST /__admin/clock` and `POST /__admin/restart` on the fake
 * model move the real gateway's (libfaketime) clock and restart its process — the same contract the
 * emulator implements for itself. A fake model started alone has none and says so.
 *
 * Effects, as the control plane that runs them is an Effect app; a failure is the reason the plane
 * answers 500 with.
 */
import type { Effect } from "effect"

export interface GatewayControls {
  /** The gateway's clock, when it runs under libfaketime; it can be set and advanced, never frozen. */
  readonly clock?: {
    readonly now: () => number
    readonly set: (epochSeconds: number) => Effect.Effect<void, Error>
    readonly advance: (seconds: number) => Effect.Effect<void, Error>
  }
  readonly restart?: Effect.Effect<void, Error>
}
