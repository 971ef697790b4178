/**
 * The real pinned Hermes gateway as a Target, through the oracle runner's programmatic API
 * (process launcher, or container where an engine runs). The Script goes to its fake model, hold
 * releases too; clock steps move its libfaketime clock; restart is a graceful stop+start, or
 * SIGKILL+start with `crash: true`. The gateway is started once and shared by all scenarios.
 *
 * Differences from the emulator a reader must know: the faked clock keeps running (`freeze` only
 * on the wall-only clock of the wall-clock profile, refused otherwise), and `reset` restarts the
 * gateway with a fresh fake model but the same HERMES_HOME (the sessions database stays; runs kept
 * in memory are gone). With `checkLeftState` (compare --shared) a play must leave it as it found it
 * (StateFingerprint.ts): its `end` fails with the difference otherwise. `drain` writes Hermes' external-drain marker (externalDrain.ts).
 */
import { FileSystem, Path } from "@effect/platform"
import { NodeContext } from "@effect/platform-node"
import type { Gateway, OracleError } from "@hermetic/oracle-runner"
import { Context, Duration, Effect, Layer, type Scope } from "effect"
import type { ClockCommand } from "../scenario/Scenario.js"
import { externalDrain } from "./externalDrain.js"
import { fingerprintDifference, type StateFingerprint, stateFingerprint } from "./StateFingerprint.js"
import type { LiveDriver } from "./LiveDriver.js"
import { fetchEffect } from "./LiveDriver.js"
import { liveTarget } from "./liveTarget.js"
import { loadOracleRunner, type OracleRunnerMissing } from "./oracleRunner.js"
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
  /** Browser origins the gateway allows (the cors and cors-any profiles): API_SERVER_CORS_ORIGINS. */
  readonly corsOrigins?: ReadonlyArray<string>
  readonly progress?: (line: string) => void
  /** A play must leave the gateway as it found it (`compare --shared`; StateFingerprint.ts). */
  readonly checkLeftState?: boolean
}

/**
 * Waits until the fake model has no call in flight and none arrived for a moment: Hermes keeps
 * working after a response was sent (retries after model errors, housekeeping), and such a late
 * call would take the next scenario's first Script turn.
 */
const quiesce = (gw: Gateway, quietMs = 250, maxMs = 5_000): Effect.Effect<void> =>
  Effect.suspend(() => {
    const deadline = Date.now() + maxMs
    let seen = gw.journal().length
    let since = Date.now()
    const loop: Effect.Effect<void> = Effect.suspend(() => {
      if (Date.now() >= deadline) return Effect.void
      const journal = gw.journal()
      const busy = journal.some((e) => e.outcome === "pending")
      if (journal.length !== seen || busy) {
        seen = journal.length
        since = Date.now()
      } else if (Date.now() - since >= quietMs) return Effect.void
      return Effect.zipRight(Effect.sleep(Duration.millis(25)), loop)
    })
    return loop
  })

/** `until` and SSE read deadlines on the real gateway: ×3 unless HERMETIC_DEADLINE_SCALE says otherwise. */
const gatewayDeadlineScale = (): number => {
  const n = Number(process.env["HERMETIC_DEADLINE_SCALE"] ?? "3")
  return Number.isFinite(n) && n >= 1 ? n : 3
}

/**
 * The driver of a started gateway. `pristineConfig` is config.yaml as the gateway started with it:
 * a reset puts it back (Hermes writes "always" approvals into it).
 */
export const gatewayDriver = (gw: Gateway, fs: FileSystem.FileSystem, configFile: string, pristineConfig: string, options: { readonly checkLeftState?: boolean } = {}): LiveDriver => {
  // the state a play began from, when a play must leave the gateway as it found it (shared gateways)
  let found: StateFingerprint | undefined
  const takeFound = options.checkLeftState === true
    ? Effect.flatMap(stateFingerprint(gw), (f) => Effect.sync(() => void (found = f)))
    : Effect.void
  const compareLeft = Effect.suspend(() => {
    const before = found
    if (before === undefined) return Effect.void
    found = undefined
    return Effect.flatMap(stateFingerprint(gw), (after) => {
      const changed = fingerprintDifference(before, after)
      return changed.length === 0
        ? Effect.void
        : Effect.fail(new Error(`the scenario left the shared gateway in another state than it found it (run it fresh, the default, or make it clean up): ${changed.join("; ")}`))
    })
  })
  const clock = (command: ClockCommand): Effect.Effect<void, Error> => {
    if (gw.clock === null) return Effect.fail(new Error("the gateway was started without libfaketime; clock steps need it"))
    if ("set" in command) return gw.clock.set(command.set)
    if ("advance" in command) return gw.clock.advance(command.advance)
    // only a gateway on the wall-only clock (the wall-clock profile) can freeze; any other refuses with why
    return gw.clock.freeze(command.freeze)
  }
  return {
    fetch: (path, init) => fetchEffect(fetch, `${gw.baseUrl}${path}`, init),
    apiKey: gw.apiKey,
    // One connection per request: a clock jump fires aiohttp's keep-alive timers, which closes idle
    // pooled connections just as the next request reuses one ("fetch failed", not the gateway's answer).
    hiddenHeaders: () => ({ connection: "close" }),
    script: (script) => Effect.sync(() => void gw.script(script)),
    release: (hold) => Effect.sync(() => void gw.release(hold)),
    // the fake model's journal shows a main call parked on the hold
    isHeld: (hold) => Effect.sync(() => gw.journal().some((e) => e.hold === hold && e.outcome === "held")),
    clock,
    restart: (crash) => (crash ? gw.crash : gw.restart),
    drain: (on) => externalDrain(gw, on),
    modelCalls: Effect.sync(() => gw.fakeModel.receivedCalls()),
    reset: Effect.sync(() => gw.fakeModel.reset()).pipe(
      // a fresh HERMES_HOME config: Hermes writes "always" approvals into config.yaml
      Effect.zipRight(Effect.orDie(fs.writeFileString(configFile, pristineConfig))),
      Effect.zipRight(gw.restart)
    ),
    begin: Effect.zipRight(quiesce(gw), Effect.sync(() => gw.fakeModel.reset())).pipe(Effect.zipRight(takeFound)),
    end: (holds) =>
      Effect.sync(() => {
        for (const hold of holds) gw.release(hold)
      }).pipe(Effect.zipRight(options.checkLeftState === true ? Effect.zipRight(quiesce(gw), compareLeft) : Effect.void)),
    pollIntervalMs: 50,
    // a shared 2-core machine under load made runs that settle in under a second take over 10 s,
    // and a cold gateway's first streamed Responses turn more than the 15 s a stream may take
    deadlineScale: gatewayDeadlineScale(),
    sseDeadlineMs: 15_000 * gatewayDeadlineScale()
  }
}

/** Starts the gateway (verified against source-lock.json) for the scope; typed OracleErrors when it cannot, OracleRunnerMissing without the runner. */
export const gatewayTarget = (options: GatewayTargetOptions): Effect.Effect<{ target: Target; gateway: Gateway }, OracleError | OracleRunnerMissing, Scope.Scope> =>
  Effect.gen(function*() {
    const { RealGateway, RealGatewayLayer } = yield* loadOracleRunner(`--target ${options.launcher}`)
    // the oracle runner's gateway as a service: built in this scope, stopped when it closes
    // killed at the end, not stopped gracefully: its temp HERMES_HOME goes with it, and a gateway whose faked
    // clock was set back ignores SIGINT (its shutdown timers follow that clock), which held the CLI's exit 20 s
    const context = yield* Layer.build(
      // a (re)start's wait for /health scales like the deadlines: under nice 15 at load 40 a container
      // gateway's restart took 200 s, and one that gave up at 120 s left its worker without a gateway
      RealGatewayLayer({ pin: options.pin, launcher: options.launcher, killOnRelease: true, clock: options.wallClock === true ? { wallOnly: true } : {}, readyTimeoutMs: 120_000 * gatewayDeadlineScale(), ...(options.tools === true ? { tools: true } : {}), ...(options.corsOrigins !== undefined ? { corsOrigins: options.corsOrigins } : {}), ...(options.source !== undefined ? { source: options.source } : {}), ...(options.progress ? { progress: options.progress } : {}) })
    )
    const gateway = Context.get(context, RealGateway)
    const fs = yield* FileSystem.FileSystem
    const configFile = (yield* Path.Path).join(gateway.hermesHome, "config.yaml")
    // remembered before any scenario could change it
    const pristineConfig = yield* Effect.orDie(fs.readFileString(configFile))
    const target = liveTarget(
      {
        kind: options.launcher === "process" ? "gateway-process" : "gateway-container",
        pin: gateway.pin,
        real: true,
        clock: "running",
        description: `real Hermes ${gateway.pin} gateway (${options.launcher} launcher, fake model, libfaketime)`
      },
      gatewayDriver(gateway, fs, configFile, pristineConfig, { checkLeftState: options.checkLeftState === true })
    )
    return { target, gateway }
  }).pipe(Effect.provide(NodeContext.layer))
