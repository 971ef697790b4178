/**
 * Refuses to serve on a socket when that would be unsafe, by the rules of Hermes 0.19.0's start-up
 * guard: a key must be a real secret (at least 16 characters once stripped, not a placeholder such
 * as "changeme"). Hermes also refuses to start with no key at all; the emulator keeps that mode for
 * tests and local use, but only on loopback: with no key, a non-loopback host is refused, as it
 * would open the API and the control plane on every interface — unless the caller says in so many
 * words that it is a local test (`HERMETIC_ALLOW_NO_KEY=local-test`): a container must bind
 * 0.0.0.0 to be reachable through its published port, which itself may be loopback-only.
 */
import { Data } from "effect"
import { isIP } from "node:net"
import { pyStrip } from "../python/index.js"

export const MIN_KEY_LENGTH = 16

// hermes_cli.auth's placeholder list (compared lower-cased, after stripping)
const PLACEHOLDERS = new Set([
  "*",
  "**",
  "***",
  "changeme",
  "your_api_key",
  "your_api_key_here",
  "your-api-key",
  "placeholder",
  "example",
  "dummy",
  "null",
  "none"
])

/** The environment variable, and the one value of it, that lets a non-loopback host start without a key. */
export const ALLOW_NO_KEY_VARIABLE = "HERMETIC_ALLOW_NO_KEY"
export const ALLOW_NO_KEY_VALUE = "local-test"

/** Whether the environment explicitly allows a keyless non-loopback start (only the exact value counts). */
export const allowsNoKey = (env: Readonly<Record<string, string | undefined>>): boolean => env[ALLOW_NO_KEY_VARIABLE] === ALLOW_NO_KEY_VALUE

/** Whether binding here stays on this machine: loopback addresses and "localhost". */
export const isLoopbackHost = (host: string): boolean => {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1")
  if (h === "localhost") return true
  if (isIP(h) === 4) return h.startsWith("127.")
  if (isIP(h) === 6) return h === "::1" || h === "::ffff:127.0.0.1" || /^::ffff:127\./.test(h)
  return false
}

/** Why a key is not usable, or undefined when it is. */
export const weakKeyReason = (key: string): string | undefined => {
  const cleaned = pyStrip(key)
  if (cleaned.length < MIN_KEY_LENGTH) return `is shorter than ${MIN_KEY_LENGTH} characters`
  if (PLACEHOLDERS.has(cleaned.toLowerCase())) return "is a placeholder"
  return undefined
}

/** The reason to refuse starting, or undefined to go on. `apiKey` "" means no key. */
export const startupRefusal = (settings: {
  readonly host: string
  readonly apiKey: string
  readonly adminKey: string | undefined
  /** `HERMETIC_ALLOW_NO_KEY=local-test`: the user said it is a local test. */
  readonly allowNoKey?: boolean
}): string | undefined => {
  if (settings.apiKey !== "") {
    const weak = weakKeyReason(settings.apiKey)
    if (weak !== undefined) {
      return `refusing to start: the API key ${weak}; a guessable key on an agent endpoint is remote code execution. Generate one with \`openssl rand -hex 32\`.`
    }
  }
  if (settings.adminKey !== undefined) {
    const weak = weakKeyReason(settings.adminKey)
    if (weak !== undefined) return `refusing to start: the admin key ${weak}.`
  }
  if (settings.apiKey === "" && !isLoopbackHost(settings.host) && settings.allowNoKey !== true) {
    return `refusing to start: host ${settings.host} is reachable from other machines and no API key is set; set API_SERVER_KEY or --api-key (>= ${MIN_KEY_LENGTH} characters), or bind 127.0.0.1 (for a local test only, in a container whose port stays on this machine: ${ALLOW_NO_KEY_VARIABLE}=${ALLOW_NO_KEY_VALUE}).`
  }
  return undefined
}

/** The start-up guard refused the settings (startupRefusal says why). */
export class StartupRefused extends Data.TaggedError("StartupRefused")<{ readonly message: string }> {}

/**
 * The guard as `serve` applies it, for every command that listens (serve, record, replay): the key
 * given (or "" for none) and the environment's permission decide; a refusal is thrown as
 * StartupRefused, which the CLI reports with exit code 1.
 */
export const refuseUnsafeStart = (
  settings: { readonly host: string; readonly apiKey: string; readonly adminKey: string | undefined },
  env: Readonly<Record<string, string | undefined>>
): void => {
  const refusal = startupRefusal({ ...settings, allowNoKey: allowsNoKey(env) })
  if (refusal !== undefined) throw new StartupRefused({ message: refusal })
}
