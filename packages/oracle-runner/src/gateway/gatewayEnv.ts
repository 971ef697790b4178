/**
 * The gateway's environment, the same whichever launcher starts it (a process, a fork of the
 * warm server, a container): nothing inherited except what is listed here.
 */
import type { FakeClock } from "./FakeClock.js"
import type { HermesHome } from "./hermesHome.js"

export interface GatewayEnvOptions {
  /** The venv's `bin` directory, first on PATH (the host's venv, or the image's). */
  readonly venvBin: string
  readonly home: HermesHome
  readonly clock?: { readonly clock: FakeClock; readonly lib: string }
}

export const gatewayEnv = (o: GatewayEnvOptions): Record<string, string> => ({
  PATH: `${o.venvBin}:/usr/local/bin:/usr/bin:/bin`,
  HOME: o.home.home,
  HERMES_HOME: o.home.hermesHome,
  TERMINAL_CWD: o.home.workDir,
  // the terminal tool writes a shell snapshot per session under TMPDIR: inside the temp root, it goes with it
  TMPDIR: o.home.tmpDir,
  LANG: "C.UTF-8",
  TZ: "UTC",
  PYTHONUNBUFFERED: "1",
  API_SERVER_KEY: o.home.apiKey,
  API_SERVER_HOST: "127.0.0.1",
  API_SERVER_PORT: String(o.home.port),
  // unset, the gateway allows no browser origin; Hermes splits the value on commas and trims each
  ...(o.home.corsOrigins.length > 0 ? { API_SERVER_CORS_ORIGINS: o.home.corsOrigins.join(",") } : {}),
  // No network side trips: tirith download, lazy pip installs; no respawn-storm sleeps on restarts.
  TIRITH_ENABLED: "false",
  HERMES_DISABLE_LAZY_INSTALLS: "1",
  HERMES_GATEWAY_MAX_STARTS: "0",
  HERMES_GATEWAY_NO_SUPERVISE: "1",
  ...(o.clock ? o.clock.clock.env(o.clock.lib) : {})
})
