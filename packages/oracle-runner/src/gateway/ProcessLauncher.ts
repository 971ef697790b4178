/**
 * Runs `hermes gateway run` from a verified venv as its own process group, with a clean
 * environment (only an allowlist of variables), output appended to one log file, and readiness
 * judged by GET /health. Stop = SIGINT to the group (Hermes' planned stop), SIGKILL after a grace.
 */
import { readFile } from "node:fs/promises"
import { execa } from "execa"
import { GatewayStartFailed } from "../errors.js"
import type { HermesVenv } from "../venv/HermesVenv.js"
import type { FakeClock } from "./FakeClock.js"
import type { HermesHome } from "./hermesHome.js"
import { type LaunchedGateway, launchedGateway, type Progress } from "./Launcher.js"
import { groupAlive, killGroup, trackGroup, untrackGroup } from "./processGroups.js"
import { waitHealthy } from "./waitHealthy.js"

export type ProcessLaunchOptions = {
  readonly venv: HermesVenv
  readonly home: HermesHome
  readonly clock?: { readonly clock: FakeClock; readonly lib: string }
  readonly readyTimeoutMs?: number
  /** Keep the temp root (HERMES_HOME, logs) after stop, for debugging. */
  readonly keepTemp?: boolean
  readonly progress?: Progress
}

export const tailOf = async (file: string, chars = 4000): Promise<string> => {
  try {
    const t = await readFile(file, "utf8")
    return t.slice(-chars)
  } catch {
    return "(no log)"
  }
}

/** The gateway's environment: nothing inherited except what is listed here. */
export const gatewayEnv = (o: ProcessLaunchOptions): Record<string, string> => ({
  PATH: `${o.venv.dir}/bin:/usr/local/bin:/usr/bin:/bin`,
  HOME: o.home.home,
  HERMES_HOME: o.home.hermesHome,
  TERMINAL_CWD: o.home.workDir,
  LANG: "C.UTF-8",
  TZ: "UTC",
  PYTHONUNBUFFERED: "1",
  API_SERVER_KEY: o.home.apiKey,
  API_SERVER_HOST: "127.0.0.1",
  API_SERVER_PORT: String(o.home.port),
  // No network side trips: tirith download, lazy pip installs; no respawn-storm sleeps on restarts.
  TIRITH_ENABLED: "false",
  HERMES_DISABLE_LAZY_INSTALLS: "1",
  HERMES_GATEWAY_MAX_STARTS: "0",
  HERMES_GATEWAY_NO_SUPERVISE: "1",
  ...(o.clock ? o.clock.clock.env(o.clock.lib) : {})
})

/**
 * Runs hermes through a two-line Python shim that asks the kernel to SIGKILL it when its parent
 * (this Node process) dies (prctl PR_SET_PDEATHSIG), then execs the real CLI. Without it, a
 * runner killed with SIGKILL (a CI timeout, `kill -9` of `up`) leaves the gateway running.
 */
const PDEATHSIG_SHIM = [
  "import ctypes, os, signal, sys",
  "ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)",
  "if os.getppid() != int(sys.argv[1]): sys.exit(70)",
  "os.execv(sys.argv[2], sys.argv[2:])"
].join("\n")

const spawnGateway = (o: ProcessLaunchOptions) =>
  execa(o.venv.python, ["-c", PDEATHSIG_SHIM, String(process.pid), o.venv.hermes, "gateway", "run", "--replace", "-v"], {
    cwd: o.home.workDir,
    env: gatewayEnv(o),
    extendEnv: false,
    detached: true,
    stdin: "ignore",
    // Both streams append to one log (O_APPEND keeps their lines whole).
    stdout: { file: o.home.logFile, append: true },
    stderr: { file: o.home.logFile, append: true },
    reject: false,
    cleanup: false
  })

export const launchProcess = async (o: ProcessLaunchOptions): Promise<LaunchedGateway> => {
  const baseUrl = `http://127.0.0.1:${o.home.port}`
  const progress = o.progress ?? (() => {})
  let child: ReturnType<typeof spawnGateway> | null = null
  let pgid: number | null = null
  let exitInfo: string | null = null

  const start = async (): Promise<void> => {
    exitInfo = null
    child = spawnGateway(o)
    const c = child
    pgid = c.pid ?? null
    if (pgid !== null) trackGroup(pgid)
    void c.then((r) => {
      exitInfo = `gateway exited (code ${String(r.exitCode)}, signal ${String(r.signal)})`
    })
    const health = await waitHealthy(baseUrl, { timeoutMs: o.readyTimeoutMs ?? 120_000, exited: () => exitInfo })
    if (!health.ok) {
      await killNow()
      throw new GatewayStartFailed({ reason: health.reason, logFile: o.home.logFile, logTail: await tailOf(o.home.logFile) })
    }
    progress(`gateway ready at ${baseUrl}`)
  }

  const waitExit = async (ms: number): Promise<boolean> => {
    const c = child
    if (!c) return true
    const done = await Promise.race([c.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), ms))])
    return done
  }

  const killNow = async (): Promise<void> => {
    if (pgid === null) return
    killGroup(pgid, "SIGKILL")
    await waitExit(10_000)
    // Children of the gateway (if any) share the group; make sure none survive.
    for (let i = 0; i < 50 && groupAlive(pgid); i++) await new Promise((r) => setTimeout(r, 100))
    untrackGroup(pgid)
    pgid = null
    child = null
  }

  const stopGracefully = async (): Promise<void> => {
    if (pgid === null) return
    // SIGINT is Hermes' planned stop (exit 0); SIGTERM would log a signal-initiated shutdown.
    killGroup(pgid, "SIGINT")
    if (!(await waitExit(20_000))) progress("gateway ignored SIGINT for 20 s; killing")
    await killNow()
  }

  return launchedGateway({
    baseUrl,
    home: o.home,
    keepTemp: o.keepTemp,
    processGroup: () => pgid,
    containerId: () => null,
    start,
    stopGracefully,
    kill: killNow
  })
}
