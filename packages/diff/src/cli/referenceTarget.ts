/** The reference side the CLI asked for: the real gateway through the oracle runner. */
import { Effect } from "effect"
import { type GatewayProfile, gatewayOptionsFor } from "../profile/GatewayProfile.js"
import { freshGatewayTarget } from "../target/FreshGatewayPool.js"
import { gatewayTarget, type GatewayLauncher } from "../target/GatewayTarget.js"
import { progress } from "./progress.js"

export interface ReferenceOptions {
  /** A source checkout to install editable. */
  readonly source?: string | undefined
  /** How its progress lines are prefixed (default "gateway"). */
  readonly label?: string
  /** The gateway profile (default strict). */
  readonly profile?: GatewayProfile
  /** A fresh gateway per scenario play (FreshGatewayPool.ts). */
  readonly fresh?: boolean
  /** On a shared gateway, a play must leave it as it found it (compare --shared). */
  readonly checkLeftState?: boolean
}

export const realReference = (pin: string, launcher: GatewayLauncher, options: ReferenceOptions = {}) => {
  const gatewayOptions = {
    pin,
    launcher,
    ...(options.source !== undefined ? { source: options.source } : {}),
    ...gatewayOptionsFor(options.profile ?? "strict"),
    progress: (line: string) => progress(`${options.label ?? "gateway"}: ${line}`)
  }
  // how a fresh gateway starts, for measuring the alternatives (docs/fresh-state.md): fork (default) or process
  const starter = process.env["HERMETIC_FRESH_STARTER"] === "process" ? "process" : "fork"
  return options.fresh === true
    ? freshGatewayTarget({ ...gatewayOptions, starter }).pipe(Effect.map((g) => g.target))
    : gatewayTarget({ ...gatewayOptions, checkLeftState: options.checkLeftState === true }).pipe(Effect.map((g) => g.target))
}
