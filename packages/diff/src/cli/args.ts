/** Flag parsing shared by the commands (node:util parseArgs; unknown flags are usage errors). */
import { readFileSync } from "node:fs"
import { parseArgs } from "node:util"
import { defaultLockPath } from "@hermetic/oracle-runner"
import { isPinName } from "../coverage/emulatorRoutes.js"
import { repoRoot } from "../evidence/provenance.js"
import { GATEWAY_PROFILES, type GatewayProfile, isGatewayProfile } from "../profile/GatewayProfile.js"
import { UsageError } from "./CliError.js"

export type ParsedArgs = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>>

export const OPTIONS = {
  pin: { type: "string" },
  target: { type: "string" },
  runs: { type: "string" },
  seed: { type: "string" },
  scenario: { type: "string", multiple: true },
  out: { type: "string" },
  register: { type: "string" },
  source: { type: "string" },
  profile: { type: "string" },
  "no-noise": { type: "boolean" },
  fresh: { type: "boolean" },
  candidate: { type: "string" },
  "no-shrink": { type: "boolean" },
  workers: { type: "string" },
  shard: { type: "string" },
  pick: { type: "string" },
  html: { type: "string" },
  base: { type: "string" },
  head: { type: "string" },
  help: { type: "boolean", short: "h" }
} as const

export const parse = (argv: ReadonlyArray<string>): ParsedArgs => {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true })
  } catch (e) {
    throw new UsageError({ message: e instanceof Error ? e.message : String(e) })
  }
}

export const defaultPin = (): string => {
  try {
    return (JSON.parse(readFileSync(defaultLockPath(), "utf8")) as { default: string }).default
  } catch {
    return "0.19.0"
  }
}

/** The pin both sides run; the emulator must have a profile for it. */
export const pinOf = (args: ParsedArgs): "0.19.0" | "0.21.0" => {
  const pin = args.values.pin ?? defaultPin()
  if (!isPinName(pin)) throw new UsageError({ message: `--pin ${pin}: the emulator has profiles for 0.19.0 and 0.21.0 only` })
  return pin
}

/** The gateway profile both sides run (`--profile`, default strict). */
export const profileOf = (args: ParsedArgs): GatewayProfile => {
  const profile = args.values.profile ?? "strict"
  if (!isGatewayProfile(profile)) throw new UsageError({ message: `--profile is ${GATEWAY_PROFILES.join(" or ")}, not ${profile}` })
  return profile
}

export const intFlag = (args: ParsedArgs, name: "runs" | "seed" | "workers", fallback: number): number => {
  const raw = args.values[name]
  if (raw === undefined) return fallback
  if (!/^-?\d+$/.test(raw)) throw new UsageError({ message: `--${name} wants an integer, got ${raw}` })
  return Number(raw)
}
