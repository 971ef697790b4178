/**
 * The emulator as a Target: in process (its Layer, `emu.fetch`, no socket) or over HTTP
 * (`startEmulator` on a loopback port). Both run the pin they are asked for, so the emulator is
 * compared on the same pin as the real gateway.
 */
import { Emulator, type EmulatorOptions, layer, type Pin, startEmulator } from "@hermetic/emulator"
import { Context, Effect, Layer, type Scope } from "effect"
import { emulatorDriver } from "./emulatorDriver.js"
import type { Fetch } from "./LiveDriver.js"
import { liveTarget } from "./liveTarget.js"
import type { Target } from "./Target.js"

export const EMULATOR_API_KEY = "hermetic-diff-key-0123456789abcdef"

export interface EmulatorTargetOptions {
  readonly pin: Pin
  /** Freeze every scenario's clock at this epoch (timestamps then compare exactly). */
  readonly pinnedClock?: number
  /** Seed the id generator (reproducible ids across runs). */
  readonly seed?: number
  readonly emulatorOptions?: Omit<EmulatorOptions, "hermesVersion" | "apiKey">
  /**
   * Wraps the emulator's fetch: how a test builds a deliberately broken variant without touching
   * the emulator itself.
   */
  readonly wrapFetch?: (fetch: Fetch) => Fetch
  readonly sseDeadlineMs?: number
}

const clockOf = (o: EmulatorTargetOptions) => (o.pinnedClock !== undefined ? "pinned" : "running") as "pinned" | "running"

export const emulatorInProcessTarget = (options: EmulatorTargetOptions): Effect.Effect<Target, never, Scope.Scope> =>
  Effect.gen(function*() {
    // the emulator's Layer built in this scope (released with it); its fetch is the in-process HTTP edge
    // an emulator whose SQLite addon cannot load cannot be a target: a defect, its message says what to run
    const built = yield* Layer.build(
      layer({ ...options.emulatorOptions, hermesVersion: options.pin, apiKey: EMULATOR_API_KEY }, options.seed !== undefined ? { seed: options.seed } : {})
    ).pipe(Effect.orDie)
    const emu = Context.get(built, Emulator)
    const base = (url: string, init: RequestInit) => emu.fetch(url, init)
    const driver = emulatorDriver({
      fetch: options.wrapFetch ? options.wrapFetch(base) : base,
      baseUrl: "http://emulator.invalid",
      apiKey: EMULATOR_API_KEY,
      ...(options.pinnedClock !== undefined ? { pinnedClock: options.pinnedClock } : {}),
      pollIntervalMs: 2,
      sseDeadlineMs: options.sseDeadlineMs ?? 5_000
    })
    return liveTarget(
      { kind: "emulator-inprocess", pin: options.pin, real: false, clock: clockOf(options), description: `emulator ${options.pin} in process (Layer, no socket)` },
      driver
    )
  })

export const emulatorHttpTarget = (options: EmulatorTargetOptions): Effect.Effect<Target, never, Scope.Scope> =>
  Effect.gen(function*() {
    // the emulator's socket server has only a Promise face (startEmulator): it is wrapped here, at its edge
    const running = yield* Effect.acquireRelease(
      Effect.promise(() =>
        startEmulator({ ...options.emulatorOptions, hermesVersion: options.pin, apiKey: EMULATOR_API_KEY, port: 0 }, options.seed !== undefined ? { seed: options.seed } : {})
      ),
      (emu) => Effect.promise(() => emu.close())
    )
    const base = (url: string, init: RequestInit) => fetch(url, init)
    const driver = emulatorDriver({
      fetch: options.wrapFetch ? options.wrapFetch(base) : base,
      baseUrl: running.url,
      apiKey: EMULATOR_API_KEY,
      ...(options.pinnedClock !== undefined ? { pinnedClock: options.pinnedClock } : {}),
      pollIntervalMs: 10,
      sseDeadlineMs: options.sseDeadlineMs ?? 5_000
    })
    return liveTarget(
      { kind: "emulator-http", pin: options.pin, real: false, clock: clockOf(options), description: `emulator ${options.pin} over HTTP at ${running.url}` },
      driver
    )
  })
