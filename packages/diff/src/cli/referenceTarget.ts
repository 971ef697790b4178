/** The reference side the CLI asked for: the real gateway through the oracle runner. */
import { Effect } from "effect"
import { gatewayTarget, type GatewayLauncher } from "../target/GatewayTarget.js"
import { progress } from "./progress.js"

export const realReference = (pin: string, launcher: GatewayLauncher, source: string | undefined, label = "gateway") =>
  gatewayTarget({ pin, launcher, ...(source !== undefined ? { source } : {}), progress: (line) => progress(`${label}: ${line}`) }).pipe(Effect.map((g) => g.target))
