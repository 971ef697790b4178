/**
 * A fresh, disposable HERMES_HOME per gateway: config.yaml pointing the model at the fake model,
 * .env with the API server's key/host/port, an empty working directory and a private HOME, all
 * under one temp root that is removed when the gateway is stopped.
 */
import { randomBytes } from "node:crypto"
import { FileSystem, Path } from "@effect/platform"
import { Effect, type Scope } from "effect"
import { AGENT_MAX_TURNS } from "@hermetic/script"
import { ALL_OPTIONAL_TOOLSETS, toolsProfile } from "./toolsProfile.js"

export type HermesHome = {
  /** Temp root holding everything below; removed on cleanup. */
  readonly root: string
  readonly hermesHome: string
  /** HOME for the gateway, so nothing under the real ~ is read or written (lock dir, ~/.hermes). */
  readonly home: string
  /** Empty working dir: AGENTS.md and friends in cwd would be injected into the prompt. */
  readonly workDir: string
  /** TMPDIR: the terminal tool's shell snapshots (`hermes-snap-*.sh`) go here, not to the host's /tmp. */
  readonly tmpDir: string
  readonly logFile: string
  readonly apiKey: string
  readonly port: number
  /** The browser origins the API server allows (API_SERVER_CORS_ORIGINS); none when empty. */
  readonly corsOrigins: ReadonlyArray<string>
}

/**
 * `strict` (default) turns off everything that makes extra or nondeterministic model calls or
 * prompt text: tools, memory, titles, compression, background review, curator, environment probe.
 * `upstream-defaults` keeps Hermes' own defaults except the model and network-reaching features, to
 * observe which housekeeping calls a stock gateway makes.
 */
export type Determinism = "strict" | "upstream-defaults"

export type HermesHomeOptions = {
  readonly fakeModelBaseUrl: string
  readonly fakeModelId: string
  readonly port: number
  readonly determinism?: Determinism
  /** The model's context window told to Hermes; Hermes refuses below 64,000. */
  readonly contextLength?: number
  /**
   * Enable the harmless, deterministic tools profile (`toolsProfile.ts`): the todo tool and a
   * terminal confined to the scratch work dir, with Hermes' approval guard in manual mode.
   */
  readonly tools?: boolean
  /** Browser origins the API server allows (`*` for any): set as API_SERVER_CORS_ORIGINS (gatewayEnv.ts). */
  readonly corsOrigins?: ReadonlyArray<string>
}

/** ≥16 random characters, not a placeholder: what the API server's startup guard requires. */
export const newApiKey = (): string => `hermetic-${randomBytes(16).toString("hex")}`

export const configFor = (o: HermesHomeOptions, workDir: string): Record<string, unknown> => {
  const model = {
    provider: "custom",
    base_url: o.fakeModelBaseUrl,
    // ≥4 chars and no placeholder, else Hermes sends "no-key-required"; the fake model accepts any.
    api_key: "hermetic-fake-model-key",
    default: o.fakeModelId,
    context_length: o.contextLength ?? 131072,
    max_tokens: 4096
  }
  const offline = {
    security: { tirith_enabled: false, allow_lazy_installs: false },
    model_catalog: { enabled: false },
    kanban: { dispatch_in_gateway: false },
    gateway: { respawn_storm: { max_starts: 0 } },
    terminal: { cwd: workDir }
  }
  if (o.determinism === "upstream-defaults") return { model, ...offline }
  const tools = o.tools === true ? toolsProfile(workDir) : undefined
  return {
    model,
    ...offline,
    ...(tools?.config ?? {}),
    platform_toolsets: { api_server: tools?.toolsets ?? [] },
    agent: {
      disabled_toolsets: ALL_OPTIONAL_TOOLSETS.filter((t) => !(tools?.toolsets ?? []).includes(t)),
      environment_probe: false,
      coding_context: "off",
      max_turns: AGENT_MAX_TURNS
    },
    memory: { memory_enabled: false, user_profile_enabled: false, nudge_interval: 0 },
    skills: { creation_nudge_interval: 0 },
    compression: { enabled: false },
    auxiliary: { title_generation: { enabled: false }, background_review: { enabled: false } },
    curator: { enabled: false }
  }
}

const writeHome = (fs: FileSystem.FileSystem, path: Path.Path, root: string, o: HermesHomeOptions) =>
  Effect.gen(function*() {
    const hermesHome = path.join(root, "hermes-home")
    const home = path.join(root, "home")
    const workDir = path.join(root, "work")
    const tmpDir = path.join(root, "tmp")
    for (const d of [hermesHome, home, workDir, tmpDir]) yield* fs.makeDirectory(d, { recursive: true })
    const apiKey = newApiKey()
    // JSON is valid YAML, so config.yaml needs no YAML writer.
    yield* fs.writeFileString(path.join(hermesHome, "config.yaml"), JSON.stringify(configFor(o, workDir), null, 2) + "\n")
    yield* fs.writeFileString(path.join(hermesHome, ".env"), [`API_SERVER_KEY=${apiKey}`, "API_SERVER_HOST=127.0.0.1", `API_SERVER_PORT=${o.port}`, ""].join("\n"))
    return { root, hermesHome, home, workDir, tmpDir, logFile: path.join(root, "gateway.log"), apiKey, port: o.port, corsOrigins: o.corsOrigins ?? [] } satisfies HermesHome
  })

/**
 * The same HERMES_HOME as a scoped resource through platform's FileSystem and Path: its temp root
 * is removed when the scope closes, unless `keep` (then it stays for debugging).
 */
export const scopedHermesHome = (o: HermesHomeOptions & { readonly keep?: boolean }): Effect.Effect<HermesHome, never, Scope.Scope | FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const root = o.keep === true ? yield* fs.makeTempDirectory({ prefix: "hermetic-gw-" }) : yield* fs.makeTempDirectoryScoped({ prefix: "hermetic-gw-" })
    return yield* writeHome(fs, path, root, o)
  }).pipe(Effect.orDie)
