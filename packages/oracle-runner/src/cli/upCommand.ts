/**
 * `up`: start the gateway and its fake model, print the connection lines as soon as /health
 * answers, stay up until SIGINT/SIGTERM (the runtime interrupts) or SIGHUP, then stop everything
 * and remove the state file.
 */
import { Effect } from "effect"
import type { LauncherKind } from "../gateway/Gateway.js"
import type { Determinism } from "../gateway/hermesHome.js"
import { oneOf, secondsFlag, UsageError, type Values } from "./args.js"
import { progress, scopedCliGateway } from "./gatewayScope.js"
import { clearState, readState, writeState } from "./stateFile.js"

const parseFaketime = (v: string | undefined): Effect.Effect<{ start?: number } | undefined, UsageError> => {
  if (v === undefined) return Effect.succeed(undefined)
  if (v === "now") return Effect.succeed({})
  const n = /^\d+(\.\d+)?$/.test(v) ? Number(v) : Date.parse(v) / 1000
  if (!Number.isFinite(n)) return Effect.fail(new UsageError({ message: `--faketime wants epoch seconds or an ISO date, got ${v}` }))
  return Effect.succeed({ start: n })
}

/** `--cors-origins a,b`: split on commas and trimmed, as Hermes reads API_SERVER_CORS_ORIGINS. */
export const corsOriginList = (v: string): ReadonlyArray<string> => v.split(",").map((s) => s.trim()).filter((s) => s !== "")

const untilSignal = (signal: NodeJS.Signals) =>
  Effect.async<void>((resume) => {
    const on = () => resume(Effect.void)
    process.once(signal, on)
    return Effect.sync(() => process.removeListener(signal, on))
  })

export const upCommand = (flags: Values<"up">) =>
  Effect.gen(function*() {
    const launcher = yield* oneOf<LauncherKind>("launcher", flags.launcher, ["process", "container"], "process")
    const determinism = yield* oneOf<Determinism>("determinism", flags.determinism, ["strict", "upstream-defaults"], "strict")
    const faketime = yield* parseFaketime(flags.faketime)
    const readyTimeoutMs = yield* secondsFlag("ready-timeout", flags["ready-timeout"])
    const existing = yield* Effect.promise(readState)
    if (existing && isAlive(existing.pid)) {
      progress(`another 'up' (pid ${existing.pid}) is running at ${existing.baseUrl}; run 'down' first`)
      return 1
    }
    const t0 = Date.now()
    const gw = yield* scopedCliGateway(
      {
        ...(flags.pin ? { pin: flags.pin } : {}),
        launcher,
        ...(flags.source ? { source: flags.source } : {}),
        ...(faketime ? { clock: faketime } : {}),
        determinism,
        ...(flags.tools === true ? { tools: true } : {}),
        ...(flags["cors-origins"] !== undefined ? { corsOrigins: corsOriginList(flags["cors-origins"]) } : {}),
        ...(readyTimeoutMs !== undefined ? { readyTimeoutMs } : {}),
        ...(flags["keep-temp"] === true ? { keepTemp: true } : {})
      },
      Effect.promise(clearState)
    )
    yield* Effect.promise(() =>
      writeState({
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
    )
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
    yield* untilSignal("SIGHUP")
    progress("SIGHUP")
    return 0
  }).pipe(Effect.scoped)

export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
