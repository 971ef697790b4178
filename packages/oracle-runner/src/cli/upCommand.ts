/**
 * `up`: start the gateway and its fake model, print the connection lines as soon as /health
 * answers, stay up until SIGINT/SIGTERM, then stop everything and remove the state file.
 */
import { startGateway, type LauncherKind } from "../gateway/Gateway.js"
import type { Determinism } from "../gateway/hermesHome.js"
import { checkKnown, flagString, UsageError, type Args } from "./args.js"
import { clearState, readState, writeState } from "./stateFile.js"

export const UP_FLAGS = ["pin", "launcher", "source", "faketime", "determinism", "tools", "keep-temp", "ready-timeout"]

const progress = (line: string) => process.stderr.write(`[oracle-runner] ${line}\n`)

const parseFaketime = (v: string | true | undefined): { start?: number } | undefined => {
  if (v === undefined) return undefined
  if (v === true || v === "now") return {}
  const n = /^\d+(\.\d+)?$/.test(v) ? Number(v) : Date.parse(v) / 1000
  if (!Number.isFinite(n)) throw new UsageError(`--faketime wants epoch seconds or an ISO date, got ${v}`)
  return { start: n }
}

export const upCommand = async (args: Args): Promise<number> => {
  checkKnown(args, UP_FLAGS)
  const launcher = (flagString(args, "launcher") ?? "process") as LauncherKind
  if (launcher !== "process" && launcher !== "container") throw new UsageError(`--launcher is process or container, not ${String(launcher)}`)
  const determinism = (flagString(args, "determinism") ?? "strict") as Determinism
  if (determinism !== "strict" && determinism !== "upstream-defaults") throw new UsageError(`--determinism is strict or upstream-defaults`)
  const existing = await readState()
  if (existing && isAlive(existing.pid)) {
    progress(`another 'up' (pid ${existing.pid}) is running at ${existing.baseUrl}; run 'down' first`)
    return 1
  }
  const pin = flagString(args, "pin")
  const source = flagString(args, "source")
  const faketime = parseFaketime(args.flags.get("faketime"))
  const timeout = flagString(args, "ready-timeout")
  const t0 = Date.now()
  const gw = await startGateway({
    ...(pin ? { pin } : {}),
    launcher,
    ...(source ? { source } : {}),
    ...(faketime ? { clock: faketime } : {}),
    determinism,
    ...(args.flags.has("tools") ? { tools: true } : {}),
    ...(timeout ? { readyTimeoutMs: Number(timeout) * 1000 } : {}),
    ...(args.flags.has("keep-temp") ? { keepTemp: true } : {}),
    progress
  })
  let stopping = false
  const stop = async (why: string) => {
    if (stopping) return
    stopping = true
    progress(`${why}: stopping`)
    await gw.stop().catch((e: unknown) => progress(`stop failed: ${String(e)}`))
    await clearState()
    progress("stopped")
    process.exit(0)
  }
  process.on("SIGINT", () => void stop("SIGINT"))
  process.on("SIGTERM", () => void stop("SIGTERM"))
  process.on("SIGHUP", () => void stop("SIGHUP"))
  await writeState({
    pid: process.pid,
    processGroup: gw.processGroup(),
    ...(gw.containerId() ? { container: gw.containerId() ?? "" } : {}),
    pin: gw.pin,
    launcher: gw.launcher,
    baseUrl: gw.baseUrl,
    fakeModelUrl: gw.fakeModelUrl,
    tempRoot: gw.tempRoot,
    logFile: gw.logFile,
    startedAt: new Date().toISOString()
  })
  process.stdout.write(
    [
      `HERMES_BASE_URL=${gw.baseUrl}`,
      `API_SERVER_KEY=${gw.apiKey}`,
      `FAKE_MODEL_URL=${gw.fakeModelUrl}`,
      `HERMES_PIN=${gw.pin}`,
      `HERMES_LOG=${gw.logFile}`,
      ...(gw.clock ? [`FAKETIME_NOW=${gw.clock.now().toFixed(3)}`] : []),
      ""
    ].join("\n")
  )
  progress(`ready in ${((Date.now() - t0) / 1000).toFixed(1)} s; Ctrl-C (or 'down') stops it`)
  // Stay alive until a signal arrives.
  await new Promise<never>(() => {})
  return 0
}

export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
