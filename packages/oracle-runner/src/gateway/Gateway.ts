/**
 * One real pinned Hermes gateway with its fake model: the handle the differ and the CLI use.
 * Starting verifies the pin against source-lock.json first; anything that cannot run is a typed
 * error (PinUnavailable, LockMismatch, MissingTool, GatewayStartFailed), never another pin.
 */
import type { Script } from "@hermetic/script"
import { Effect } from "effect"
import { type GatewayStartFailed, PinUnavailable } from "../errors.js"
import type { FakeModel } from "../fake-model/FakeModelServer.js"
import type { JournalEntry } from "../fake-model/Journal.js"
import type { Pin, SourceLock } from "../lock/SourceLock.js"
import type { ForkServer } from "./ForkServer.js"
import type { Determinism } from "./hermesHome.js"
import type { Progress } from "./Launcher.js"

export type LauncherKind = "process" | "container"

export type GatewayOptions = {
  /** A pin of source-lock.json; its `default` when omitted. */
  readonly pin?: string
  readonly launcher?: LauncherKind
  /** A checkout to install editable (required for pins not on PyPI). */
  readonly source?: string
  /**
   * Put the gateway under libfaketime; `start` is the initial epoch seconds (default: real now);
   * `wallOnly` fakes the wall clock alone, so it can be frozen (FakeClock.ts).
   */
  readonly clock?: { readonly start?: number; readonly wallOnly?: boolean }
  readonly determinism?: Determinism
  /** The tools profile (todo, a confined terminal, the approval guard): see toolsProfile.ts. */
  readonly tools?: boolean
  /** Browser origins the API server allows (`*`: any), as API_SERVER_CORS_ORIGINS on every launcher. */
  readonly corsOrigins?: ReadonlyArray<string>
  readonly readyTimeoutMs?: number
  readonly keepTemp?: boolean
  readonly progress?: Progress
  readonly lockPath?: string
  /**
   * Fork the gateway from this fork server (scopedGatewayForkServer, same pin and clock options)
   * instead of starting a new interpreter; process launcher only.
   */
  readonly forkServer?: ForkServer
  /** Closing the scope SIGKILLs the gateway instead of Hermes' planned stop (its home is thrown away anyway). */
  readonly killOnRelease?: boolean
}

/** The gateway for Effect programs (`scopedGateway`, `RealGateway`): its actions are Effects; it stops when its Scope closes. */
export type Gateway = {
  readonly pin: string
  readonly launcher: LauncherKind
  readonly baseUrl: string
  readonly apiKey: string
  /** Admin URL of the fake model (POST /__admin/script etc.). */
  readonly fakeModelUrl: string
  readonly fakeModel: Omit<FakeModel, "close">
  readonly logFile: string
  readonly hermesHome: string
  /** Temp root holding HERMES_HOME, HOME, the work dir and the log; removed when the scope closes. */
  readonly tempRoot: string
  processGroup(): number | null
  containerId(): string | null
  readonly clock: {
    now(): number
    set(epochSeconds: number): Effect.Effect<void>
    advance(seconds: number): Effect.Effect<void>
    /** Stop or restart the wall clock; fails unless the gateway runs the wall-only clock. */
    freeze(frozen: boolean): Effect.Effect<void, Error>
  } | null
  script(script: Script): number
  release(hold: string): number
  journal(): ReadonlyArray<JournalEntry>
  /** Graceful stop and start again on the same HERMES_HOME. */
  readonly restart: Effect.Effect<void, GatewayStartFailed>
  /** SIGKILL, then start again on the same HERMES_HOME. */
  readonly crash: Effect.Effect<void, GatewayStartFailed>
}

export type GatewayClock = {
  now(): number
  set(epochSeconds: number): Promise<void>
  advance(seconds: number): Promise<void>
  /** Stop or restart the wall clock; rejects unless the gateway runs the wall-only clock. */
  freeze(frozen: boolean): Promise<void>
}

/** The Promise face of a Gateway (`startGateway`): rejections are the OracleErrors themselves; `stop()` releases everything. */
export type GatewayHandle = Omit<Gateway, "clock" | "restart" | "crash"> & {
  readonly clock: GatewayClock | null
  restart(): Promise<void>
  crash(): Promise<void>
  stop(): Promise<void>
}

/** The pin `requested` names in the lock (its `default` when undefined). */
export const resolvePin = (lock: SourceLock, requested: string | undefined): Effect.Effect<{ name: string; pin: Pin }, PinUnavailable> => {
  const name = requested ?? lock.default
  const pin = lock.pins[name]
  if (!pin) {
    return Effect.fail(new PinUnavailable({
      pin: name,
      reason: `no such pin in source-lock.json (known: ${Object.keys(lock.pins).join(", ")})`,
      needed: ["a pin listed in source-lock.json"]
    }))
  }
  return Effect.succeed({ name, pin })
}

