/**
 * The real pinned Hermes gateway as a Target, through the oracle runner's programmatic API
 * (process launcher, or container where an engine runs). The Script goes to its fake model, hold
 * releases too; clock steps move its libfaketime clock; restart is a graceful stop+start, or
 * SIGKILL+start with `crash: true`. The gateway is started once and shared by all scenarios.
 *
 * Differences from the emulator a reader must know: the faked clock keeps running (it cannot be
 * frozen; `freeze` is refused), and `reset` restarts the gateway with a fresh fake model but the
 * same HERMES_HOME (the sessions database stays; runs kept in memory are gone).
 */
import { type GatewayHandle, type OracleError, RealGateway, RealGatewayLayer } from "@hermetic/oracle-runner"
import { readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Context, Effect, Layer, type Scope } from "effect"
import type { ClockCommand } from "../scenario/Scenario.js"
import type { LiveDriver } from "./LiveDriver.js"
import { externalDrain } from "./externalDrain.js"
import { liveTarget } from "./liveTarget.js"
import type { Target } from "./Target.js"

export type GatewayLauncher = "process" | "container"

export interface GatewayTargetOptions {
  readonly pin: string
  readonly launcher: GatewayLauncher
  /** A source checkout to install editable (pins not on PyPI, e.g. 0.21.0). */
  readonly source?: string
  /** The tools profile: todo, a confined terminal and the approval guard (scenarios/tools/). */
  readonly tools?: boolean
  /** The wall-only faked clock, which can be frozen (the wall-clock profile). */
  readonly wallClock?: boolean
  readonly progress?: (line: string) => void
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/**
 * Waits until the fake model has no call in flight and none arrived for a moment: Hermes keeps
 * working after a response was sent (retries after model errors, housekeeping), and such a late
 * call would take the next scenario's first Script turn.
 */
const quiesce = async (gw: GatewayHandle, quietMs = 250, maxMs = 5_000) => {
  const deadline = Date.now() + maxMs
  let seen = gw.journal().length
  let since = Date.now()
  while (Date.now() < deadline) {
    const journal = gw.journal()
    const busy = journal.some((e) => e.outcome === "pending")
    if (journal.length !== seen || busy) {
      seen = journal.length
      since = Date.now()
    } else if (Date.now() - since >= quietMs) return
    await sleep(25)
  }
}

/** `until` and SSE read deadlines on the real gateway: ×3 unless HERMETIC_DEADLINE_SCALE says otherwise. */
const gatewayDeadlineScale = (): number => {
  const n = Number(process.env["HERMETIC_DEADLINE_SCALE"] ?? "3")
  return Number.isFinite(n) && n >= 1 ? n : 3
}

const pristineConfigs = new WeakMap<GatewayHandle, string>()

/** Puts back config.yaml as the gateway started with it (read once, on first use). */
const restorePristineConfig = async (gw: GatewayHandle) => {
  const file = join(gw.hermesHome, "config.yaml")
  const pristine = pristineConfigs.get(gw)
  if (pristine !== undefined) await writeFile(file, pristine)
}

/** Remembers config.yaml before any scenario could change it. */
export const rememberPristineConfig = async (gw: GatewayHandle) => {
  pristineConfigs.set(gw, await readFile(join(gw.hermesHome, "config.yaml"), "utf8"))
}

export const gatewayDriver = (gw: GatewayHandle): LiveDriver => {
  const clock = async (command: ClockCommand) => {
    if (gw.clock === null) throw new Error("the gateway was started without libfaketime; clock steps need it")
    if ("set" in command) await gw.clock.set(command.set)
    else if ("advance" in command) await gw.clock.advance(command.advance)
    // only a gateway on the wall-only clock (the wall-clock profile) can freeze; any other refuses with why
    else await gw.clock.freeze(command.freeze)
  }
  return {
    fetch: (path, init) => fetch(`${gw.baseUrl}${path}`, init),
    apiKey: gw.apiKey,
    // One connection per request: a clock jump fires aiohttp's keep-alive timers, which closes idle
    // pooled connections just as the next request reuses one ("fetch failed", not the gateway's answer).
    hiddenHeaders: () => ({ connection: "close" }),
    script: async (script) => void gw.script(script),
    release: async (hold) => void gw.release(hold),
    // the fake model's journal shows a main call parked on the hold
    isHeld: async (hold) => gw.journal().some((e) => e.hold === hold && e.outcome === "held"),
    clock,
    restart: (crash) => (crash ? gw.crash() : gw.restart()),
    drain: (on) => externalDrain(gw, on),
    reset: async () => {
      gw.fakeModel.reset()
      // a fresh HERMES_HOME config: Hermes writes "always" approvals into config.yaml
      await restorePristineConfig(gw)
      await gw.restart()
    },
    begin: async () => {
      await quiesce(gw)
      gw.fakeModel.reset()
    },
    end: async (holds) => {
      for (const hold of holds) gw.release(hold)
    },
    pollIntervalMs: 50,
    // a shared 2-core machine under load made runs that settle in under a second take over 10 s,
    // and a cold gateway's first streamed Responses turn more than the 15 s a stream may take
    deadlineScale: gatewayDeadlineScale(),
    sseDeadlineMs: 15_000 * gatewayDeadlineScale()
  }
}

/** Starts the gateway (verified against source-lock.json) for the scope; typed OracleErrors when it cannot. */
export const gatewayTarget = (options: GatewayTargetOptions): Effect.Effect<{ target: Target; gateway: GatewayHandle }, OracleError, Scope.Scope> =>
  Effect.gen(function*() {
    // the oracle runner's gateway as a service: built in this scope, stopped when it closes
    const context = yield* Layer.build(
      RealGatewayLayer({ pin: options.pin, launcher: options.launcher, clock: options.wallClock === true ? { wallOnly: true } : {}, ...(options.tools === true ? { tools: true } : {}), ...(options.source !== undefined ? { source: options.source } : {}), ...(options.progress ? { progress: options.progress } : {}) })
    )
    const gateway = Context.get(context, RealGateway)
    yield* Effect.promise(() => rememberPristineConfig(gateway))
    const target = liveTarget(
      {
        kind: options.launcher === "process" ? "gateway-process" : "gateway-container",
        pin: gateway.pin,
        real: true,
        clock: "running",
        description: `real Hermes ${gateway.pin} gateway (${options.launcher} launcher, fake model, libfaketime)`
      },
      gatewayDriver(gateway)
    )
    return { target, gateway }
  })
