/**
 * The emulator's settings, resolved once. Hermes reads its API server settings from config.yaml's
 * `extra` first and its environment second; the emulator's explicit options play the role of
 * config.yaml, so the precedence is: options → Hermes env vars → Hermes defaults.
 */
import { Context } from "effect"

/** Which clocks a control-plane set or advance moves: both (libfaketime's default) or the wall clock alone. */
export type ClockMode = "both" | "wall"
import { DEFAULT_PIN, isPin, type Pin } from "../version/Pins.js"

export interface EmulatorOptions {
  readonly hermesVersion?: Pin
  readonly apiKey?: string
  readonly host?: string
  readonly port?: number
  readonly modelName?: string
  readonly corsOrigins?: string | ReadonlyArray<string>
  /** SQLite file directory; state survives a restart of the process. */
  readonly dataDir?: string
  /** Keep all state in memory (`:memory:`); the default when no dataDir is given. */
  readonly memory?: boolean
  /** gateway.api_server.max_concurrent_runs (0 disables the cap). */
  readonly maxConcurrentRuns?: number
  /** When set, /__admin requests must carry `Authorization: Bearer <adminKey>` or `x-hermetic-admin-key`. */
  readonly adminKey?: string
  /** The gateway's profile name (the advertised model falls back to it when not default/custom). */
  readonly profileName?: string
  /** extra.model_routes: alias -> the model (and provider) requests naming the alias run on; listed by /v1/models. */
  readonly modelRoutes?: Readonly<Record<string, ModelRoute>>
  /** extra.direct_model_requests (0.21.0): honour a bare `model` on chat/responses. Not observable on the wire. */
  readonly directModelRequests?: boolean
  /** The toolsets enabled for the api_server platform (default: none, like the oracle runner's home). */
  readonly enabledToolsets?: ReadonlyArray<string>
  /** What GET /v1/skills lists (default: none, like a fresh HERMES_HOME). */
  readonly skills?: ReadonlyArray<Readonly<Record<string, unknown>>>
  /** The verification journal: keep request bodies and model calls (redacted, bounded); see services/Journal.ts. */
  readonly journal?: { readonly bodies?: boolean; readonly maxBodyBytes?: number; readonly capacity?: number }
  /**
   * Which clocks a control-plane set or advance moves (services/Clock.ts): "both" (default) moves
   * wall and loop time together, as the oracle runner's libfaketime does; "wall" moves the wall
   * clock alone, as the runner's wall-only clock (the wall-clock profile) does.
   */
  readonly clockMode?: ClockMode
  /** Start from this snapshot file (`hermes-emulator serve --snapshot FILE`): loaded into the namespace it was saved from. */
  readonly snapshot?: string
}

export interface ModelRoute {
  readonly model: string
  readonly provider?: string
}

export interface EmulatorConfigShape {
  readonly pin: Pin
  readonly apiKey: string
  readonly host: string
  readonly port: number
  readonly modelName: string
  readonly corsOrigins: ReadonlyArray<string>
  readonly sqliteFilename: string
  readonly maxConcurrentRuns: number
  readonly adminKey: string | undefined
  readonly profileName: string
  readonly modelRoutes: Readonly<Record<string, ModelRoute>>
  readonly directModelRequests: boolean
  readonly enabledToolsets: ReadonlyArray<string>
  readonly skills: ReadonlyArray<Readonly<Record<string, unknown>>>
}

export class EmulatorConfig extends Context.Tag("hermetic/EmulatorConfig")<EmulatorConfig, EmulatorConfigShape>() {}

export const DEFAULT_HOST = "127.0.0.1"
export const DEFAULT_PORT = 8642
export const DEFAULT_MODEL_NAME = "hermes-agent"
export const DEFAULT_MAX_CONCURRENT_RUNS = 10
export const SQLITE_FILE_NAME = "hermetic-emulator.db"

/** Hermes' `_coerce_port`: an unparsable value falls back to the default. */
const coercePort = (value: string | number | undefined): number => {
  if (value === undefined) return DEFAULT_PORT
  const text = String(value).trim()
  return /^[+-]?\d+$/.test(text) ? Number(text) : DEFAULT_PORT
}

/** Hermes' `_parse_cors_origins`: a comma list or a list; blanks dropped. */
export const parseCorsOrigins = (value: string | ReadonlyArray<string> | undefined): ReadonlyArray<string> => {
  if (value === undefined || value === "") return []
  const items = typeof value === "string" ? value.split(",") : value
  return items.map((s) => String(s).trim()).filter((s) => s !== "")
}

/** Hermes' `_resolve_model_name`: explicit name, else a non-default profile name, else hermes-agent. */
export const resolveModelName = (explicit: string | undefined, profile: string): string => {
  if (explicit !== undefined && explicit.trim() !== "") return explicit.trim()
  if (profile !== "" && profile !== "default" && profile !== "custom") return profile
  return DEFAULT_MODEL_NAME
}

export const resolveConfig = (
  options: EmulatorOptions = {},
  env: Readonly<Record<string, string | undefined>> = {}
): EmulatorConfigShape => {
  const envPin = env["HERMETIC_HERMES_VERSION"]
  const pin = options.hermesVersion ?? (envPin !== undefined && isPin(envPin) ? envPin : DEFAULT_PIN)
  const profileName = options.profileName ?? "default"
  const memory = options.memory ?? options.dataDir === undefined
  return {
    pin,
    apiKey: options.apiKey ?? env["API_SERVER_KEY"] ?? "",
    host: options.host ?? env["API_SERVER_HOST"] ?? DEFAULT_HOST,
    port: options.port ?? coercePort(env["API_SERVER_PORT"]),
    modelName: resolveModelName(options.modelName ?? env["API_SERVER_MODEL_NAME"], profileName),
    corsOrigins: parseCorsOrigins(options.corsOrigins ?? env["API_SERVER_CORS_ORIGINS"]),
    sqliteFilename: memory ? ":memory:" : `${options.dataDir}/${SQLITE_FILE_NAME}`,
    maxConcurrentRuns: Math.max(0, Math.trunc(options.maxConcurrentRuns ?? DEFAULT_MAX_CONCURRENT_RUNS)),
    adminKey: options.adminKey ?? env["HERMETIC_ADMIN_KEY"],
    profileName,
    modelRoutes: options.modelRoutes ?? {},
    directModelRequests: options.directModelRequests ?? false,
    enabledToolsets: options.enabledToolsets ?? [],
    skills: options.skills ?? []
  }
}
