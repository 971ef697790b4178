/**
 * Which gateway a scenario needs. `strict` (the default) is the oracle runner's tool-less home;
 * `tools` turns on the tools profile (todo, a terminal confined to the scratch dir, the approval
 * guard in manual mode) on the real gateway and the same toolsets on the emulator; `wall-clock` is
 * strict with libfaketime faking the wall clock alone, so a scenario can freeze it (the monotonic
 * clock stays real: a clock jump fires no asyncio timer or thread wait there). A scenario
 * names its profile (`"profile": "tools"`); a comparison runs one profile at a time.
 */
import type { EmulatorOptions } from "@hermetic/emulator"
import { TOOLS_PROFILE_TOOLSETS } from "@hermetic/script"
import type { Scenario } from "../scenario/Scenario.js"

export type GatewayProfile = "strict" | "tools" | "wall-clock"

export const GATEWAY_PROFILES: ReadonlyArray<GatewayProfile> = ["strict", "tools", "wall-clock"]

export const isGatewayProfile = (s: string): s is GatewayProfile => (GATEWAY_PROFILES as ReadonlyArray<string>).includes(s)

export const profileOf = (scenario: Scenario): GatewayProfile => scenario.profile ?? "strict"

/** The emulator options that mirror the real gateway's HERMES_HOME for a profile. */
export const emulatorOptionsFor = (profile: GatewayProfile): Omit<EmulatorOptions, "hermesVersion" | "apiKey"> =>
  profile === "tools" ? { enabledToolsets: TOOLS_PROFILE_TOOLSETS } : profile === "wall-clock" ? { clockMode: "wall" } : {}

/** The oracle runner's option for a profile. */
export const gatewayOptionsFor = (profile: GatewayProfile): { readonly tools?: boolean; readonly wallClock?: boolean } =>
  profile === "tools" ? { tools: true } : profile === "wall-clock" ? { wallClock: true } : {}

/** Built-in scenarios of a profile live in scenarios/ (strict) or scenarios/<profile>/. */
export const scenarioSubdir = (profile: GatewayProfile): string => (profile === "strict" ? "" : `${profile}/`)
