/**
 * What every launcher (process, container) gives back, and the one lifecycle they share.
 *
 * The shape of a launcher (the process and container launchers both follow it):
 *
 *   launchX(options): Effect<LaunchedGateway, OracleError, Scope | FileSystem | Path>
 *
 * - It builds `LauncherControls` — `start`, `stopGracefully`, `kill` as Effects — and hands them to
 *   `launchedGateway`, which starts the gateway in the caller's Scope and stops it gracefully when
 *   that Scope closes (success, failure or interruption). There is no `stop()` to remember.
 * - Each child process, container or temp dir it creates is itself a scoped resource
 *   (`Effect.acquireRelease`): killed or removed by its release, never by a `finally`.
 * - Failures are typed errors in the error channel (`GatewayStartFailed` with the log's tail, …);
 *   nothing is thrown and sorted back with `instanceof`. Unexpected failures are defects.
 * - Files and paths go through @effect/platform's FileSystem and Path; external commands through
 *   `exec/Command.ts` (execa wrapped at its edge); waiting for readiness through `waitHealthy`.
 */
import { FileSystem } from "@effect/platform"
import { Effect, type Scope } from "effect"
import type { GatewayStartFailed } from "../errors.js"

export type LaunchedGateway = {
  /** http://127.0.0.1:PORT */
  readonly baseUrl: string
  readonly apiKey: string
  readonly logFile: string
  /** The gateway's process group id on this host, when it runs as a host process. */
  processGroup(): number | null
  /** The container's id, when it runs in a container. */
  containerId(): string | null
  /** Graceful stop and start again on the same HERMES_HOME. */
  readonly restart: Effect.Effect<void, GatewayStartFailed>
  /** SIGKILL, then start again on the same HERMES_HOME. */
  readonly crash: Effect.Effect<void, GatewayStartFailed>
}

export type Progress = (line: string) => void

/** How one launcher drives its gateway; `launchedGateway` turns it into the common lifecycle. */
export interface LauncherControls {
  readonly baseUrl: string
  readonly home: { readonly apiKey: string; readonly logFile: string }
  readonly processGroup: () => number | null
  readonly containerId: () => string | null
  /** Starts the gateway and waits until it is healthy; on failure nothing of it is left running. */
  readonly start: Effect.Effect<void, GatewayStartFailed>
  /** Hermes' planned stop, then whatever is left is removed. */
  readonly stopGracefully: Effect.Effect<void>
  /** SIGKILL, nothing graceful. */
  readonly kill: Effect.Effect<void>
  /** What closing the scope does (default `stopGracefully`). */
  readonly release?: Effect.Effect<void>
}

/**
 * Started before this returns and stopped gracefully when the enclosing Scope closes.
 * restart = graceful stop + start; crash = kill + start (same HERMES_HOME).
 */
export const launchedGateway = (c: LauncherControls): Effect.Effect<LaunchedGateway, GatewayStartFailed, Scope.Scope> =>
  Effect.acquireRelease(
    // interruptible: a start waiting for /health can be given up (what it spawned is scoped itself)
    Effect.as(Effect.interruptible(c.start), {
      baseUrl: c.baseUrl,
      apiKey: c.home.apiKey,
      logFile: c.home.logFile,
      processGroup: c.processGroup,
      containerId: c.containerId,
      restart: Effect.zipRight(c.stopGracefully, c.start),
      crash: Effect.zipRight(c.kill, c.start)
    }),
    () => c.release ?? c.stopGracefully
  )

/** The end of the gateway's log, for GatewayStartFailed ("(no log)" when there is none). */
export const logTail = (file: string, chars = 4000): Effect.Effect<string, never, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFileString(file)).pipe(
    Effect.map((text) => text.slice(-chars)),
    Effect.orElseSucceed(() => "(no log)")
  )
