/** The reference side the CLI asked for: the real gateway through the oracle runner. */
import { Effect } from "effect"
import { type GatewayProfile, gatewayOptionsFor } from "../profile/GatewayProfile.js"
import { gatewayTarget, type GatewayLauncher } from "../target/GatewayTarget.js"
import { progress } from "./progress.js"

export const realReference = (pin: string, launcher: GatewayLauncher, source: string | undefined, label = "gateway", profile: GatewayProfile = "strict") =>
  gatewayTarget({ pin, launcher, ...(source !== undefined ? { source } : {}), ...gatewayOptionsFor(profile), progress: (line) => progress(`${label}: ${line}`) }).pipe(Effect.map((g) => g.target))
