/**
 * Which gateway a scenario needs. `strict` (the default) is the oracle runner's tool-less home;
 * `tools` turns on the tools profile (todo, a terminal confined to the scratch dir, the approval
 * guard in manual mode) on the real gateway and the same toolsets on the emulator; `wall-clock` is
 * strict with libfaketime faking the wall clock alone, so a scenario can freeze it (the monotonic
 * clock stays real: a clock jump fires no asyncio timer or thread wait there). `cors` is strict with
 * two browser origins allowed (API_SERVER_CORS_ORIGINS), `cors-any` strict with `*`: strict allows
 * none, so only these profiles judge which answers carry which CORS headers. A scenario names its
 * profile (`"profile": "tools"`); a comparison runs one profile at a time.
 */
import type { EmulatorOptions } from "@hermetic/emulator"
import { TOOLS_PROFILE_TOOLSETS } from "@hermetic/script"

export const GATEWAY_PROFILES = ["strict", "tools", "wall-clock", "cors", "cors-any"] as const

export type GatewayProfile = (typeof GATEWAY_PROFILES)[number]

/** The origins the `cors` profile allows; a scenario's other origins are refused. */
export const CORS_PROFILE_ORIGINS: ReadonlyArray<string> = ["http://app.example", "https://console.example:8443"]

/** The browser origins a profile allows on both sides (none: every Origin is refused). */
export const corsOriginsFor = (profile: GatewayProfile): ReadonlyArray<string> =>
  profile === "cors" ? CORS_PROFILE_ORIGINS : profile === "cors-any" ? ["*"] : []

export const isGatewayProfile = (s: string): s is GatewayProfile => (GATEWAY_PROFILES as ReadonlyArray<string>).includes(s)

export const profileOf = (scenario: { readonly profile?: GatewayProfile | undefined }): GatewayProfile => scenario.profile ?? "strict"

/** The emulator options that mirror the real gateway's HERMES_HOME for a profile. */
export const emulatorOptionsFor = (profile: GatewayProfile): Omit<EmulatorOptions, "hermesVersion" | "apiKey"> => {
  const cors = corsOriginsFor(profile)
  if (cors.length > 0) return { corsOrigins: cors }
  return profile === "tools" ? { enabledToolsets: TOOLS_PROFILE_TOOLSETS } : profile === "wall-clock" ? { clockMode: "wall" } : {}
}

/** The oracle runner's option for a profile. */
export const gatewayOptionsFor = (profile: GatewayProfile): { readonly tools?: boolean; readonly wallClock?: boolean; readonly corsOrigins?: ReadonlyArray<string> } => {
  const cors = corsOriginsFor(profile)
  if (cors.length > 0) return { corsOrigins: cors }
  return profile === "tools" ? { tools: true } : profile === "wall-clock" ? { wallClock: true } : {}
}

/** Built-in scenarios of a profile live in scenarios/ (strict) or scenarios/<profile>/. */
export const scenarioSubdir = (profile: GatewayProfile): string => (profile === "strict" ? "" : `${profile}/`)
