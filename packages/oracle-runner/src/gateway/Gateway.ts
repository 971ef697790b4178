/**
 * One real pinned Hermes gateway with its fake model: the handle the differ and the CLI use.
 * Starting verifies the pin against source-lock.json first; anything that cannot run is a typed
 * error (PinUnavailable, LockMismatch, MissingTool, GatewayStartFailed), never another pin.
 */
import { rm } from "node:fs/promises"
import { join } from "node:path"
import type { Script } from "@hermetic/script"
import { PinUnavailable } from "../errors.js"
import { startFakeModel, type FakeModel } from "../fake-model/FakeModelServer.js"
import type { JournalEntry } from "../fake-model/Journal.js"
import { readSourceLock, type Pin, type SourceLock } from "../lock/SourceLock.js"
import { ensureVenv } from "../venv/HermesVenv.js"
import { FakeClock, requireFaketimeLib } from "./FakeClock.js"
import { freePort } from "./freePort.js"
import { createHermesHome, type Determinism } from "./hermesHome.js"
import type { LaunchedGateway, Progress } from "./Launcher.js"
import { launchProcess } from "./ProcessLauncher.js"

export type LauncherKind = "process" | "container"

export type GatewayOptions = {
  /** A pin of source-lock.json; its `default` when omitted. */
  readonly pin?: string
  readonly launcher?: LauncherKind
  /** A checkout to install editable (required for pins not on PyPI). */
  readonly source?: string
  /** Put the gateway under libfaketime; `start` is the initial epoch seconds (default: real now). */
  readonly clock?: { readonly start?: number }
  readonly determinism?: Determinism
  /** The tools profile (todo, a confined terminal, the approval guard): see toolsProfile.ts. */
  readonly tools?: boolean
  readonly readyTimeoutMs?: number
  readonly keepTemp?: boolean
  readonly progress?: Progress
  readonly lockPath?: string
}

export type GatewayClock = {
  now(): number
  set(epochSeconds: number): Promise<void>
  advance(seconds: number): Promise<void>
}

export type GatewayHandle = {
  readonly pin: string
  readonly launcher: LauncherKind
  readonly baseUrl: string
  readonly apiKey: string
  /** Admin URL of the fake model (POST /__admin/script etc.). */
  readonly fakeModelUrl: string
  readonly fakeModel: FakeModel
  readonly logFile: string
  readonly hermesHome: string
  /** Temp root holding HERMES_HOME, HOME, the work dir and the log; removed by stop(). */
  readonly tempRoot: string
  processGroup(): number | null
  containerId(): string | null
  readonly clock: GatewayClock | null
  script(script: Script): number
  release(hold: string): number
  journal(): ReadonlyArray<JournalEntry>
  restart(): Promise<void>
  crash(): Promise<void>
  stop(): Promise<void>
}

export const resolvePin = (lock: SourceLock, requested: string | undefined): { name: string; pin: Pin } => {
  const name = requested ?? lock.default
  const pin = lock.pins[name]
  if (!pin) {
    throw new PinUnavailable({
      pin: name,
      reason: `no such pin in source-lock.json (known: ${Object.keys(lock.pins).join(", ")})`,
      needed: ["a pin listed in source-lock.json"]
    })
  }
  return { name, pin }
}

export const startGateway = async (options: GatewayOptions = {}): Promise<GatewayHandle> => {
  const progress = options.progress ?? (() => {})
  const { lock } = await readSourceLock(options.lockPath)
  const { name, pin } = resolvePin(lock, options.pin)
  const launcherKind = options.launcher ?? "process"
  const faketimeLib = options.clock ? requireFaketimeLib() : null

  const fakeModel = await startFakeModel()
  const cleanups: Array<() => Promise<void>> = [() => fakeModel.close()]
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {})
  }
  try {
    const port = await freePort()
    const home = await createHermesHome({
      fakeModelBaseUrl: fakeModel.baseUrl,
      fakeModelId: fakeModel.model,
      port,
      ...(options.determinism ? { determinism: options.determinism } : {}),
      ...(options.tools === true ? { tools: true } : {})
    })
    if (!options.keepTemp) cleanups.push(() => rm(home.root, { recursive: true, force: true }))
    const clock = faketimeLib ? new FakeClock(join(home.root, "faketime.rc")) : null
    if (clock) {
      if (options.clock?.start !== undefined) await clock.set(options.clock.start)
      else await clock.write()
    }
    let launched: LaunchedGateway
    if (launcherKind === "process") {
      const venv = await ensureVenv(name, pin, { ...(options.source ? { source: options.source } : {}), progress })
      progress(`starting hermes ${name} gateway (process) on 127.0.0.1:${port}`)
      launched = await launchProcess({
        venv,
        home,
        ...(clock && faketimeLib ? { clock: { clock, lib: faketimeLib } } : {}),
        ...(options.readyTimeoutMs ? { readyTimeoutMs: options.readyTimeoutMs } : {}),
        ...(options.keepTemp ? { keepTemp: true } : {}),
        progress
      })
    } else {
      const { launchContainer } = await import("../container/ContainerLauncher.js")
      progress(`starting hermes ${name} gateway (container) on 127.0.0.1:${port}`)
      launched = await launchContainer({
        pinName: name,
        pin,
        home,
        ...(clock && faketimeLib ? { clock: { clock, lib: faketimeLib } } : {}),
        ...(options.readyTimeoutMs ? { readyTimeoutMs: options.readyTimeoutMs } : {}),
        ...(options.keepTemp ? { keepTemp: true } : {}),
        progress
      })
    }
    cleanups.push(() => launched.stop())
    // the fake model's control plane moves this gateway's clock and restarts it (the shared contract)
    fakeModel.attachGateway({
      ...(clock ? { clock: { now: () => clock.now(), set: (s: number) => clock.set(s), advance: (s: number) => clock.advance(s) } } : {}),
      restart: () => launched.restart()
    })
    return {
      pin: name,
      launcher: launcherKind,
      baseUrl: launched.baseUrl,
      apiKey: launched.apiKey,
      fakeModelUrl: fakeModel.url,
      fakeModel,
      logFile: launched.logFile,
      hermesHome: home.hermesHome,
      tempRoot: home.root,
      processGroup: () => launched.processGroup(),
      containerId: () => launched.containerId(),
      clock: clock
        ? { now: () => clock.now(), set: (s) => clock.set(s), advance: (s) => clock.advance(s) }
        : null,
      script: (s) => fakeModel.appendScript(s),
      release: (h) => fakeModel.release(h),
      journal: () => fakeModel.journal(),
      restart: () => launched.restart(),
      crash: () => launched.crash(),
      stop: cleanup
    }
  } catch (e) {
    await cleanup()
    throw e
  }
}
