/**
 * The emulator as an Effect Layer: every service (Clock, Storage, Faults, Ids, Agent, Journal,
 * Gateways, Runs, Namespace) plus the app, exposed as a request handler and a fetch function with no socket.
 * Storage, Faults, Ids and Agent come from the context when the user provides them
 * (`Layer.provide(Emulator.layer(), myFaults)`); ProvidedServices.ts builds the defaults otherwise.
 * `startEmulator` puts the same app on a loopback port for tests that do not use Effect.
 */
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, ManagedRuntime, Runtime } from "effect"
import { makeApp } from "./App.js"
import { EmulatorConfig, type EmulatorConfigShape, type EmulatorOptions, resolveConfig } from "./config/EmulatorConfig.js"
import type { BodyReader, EmuRequest, EmuRequestHead, EmuResponse } from "./http/Exchange.js"
import { refuseUnsafeStart, StartupRefused } from "./config/StartupGuard.js"
import { listen } from "./http/NodeAdapter.js"
import type { EmulatorServices } from "./EmulatorServices.js"
import { makeRuns, Runs } from "./features/runs/Runs.js"
import { makeFetch } from "./http/WebAdapter.js"
import { acquireGateways, Gateways } from "./services/GatewayProcess.js"
import { Agent, makeAgent } from "./services/Agent.js"
import { providedOr, providedStorage } from "./ProvidedServices.js"
import { EmuClock, makeEmuClock } from "./services/Clock.js"
import { Faults, makeFaults } from "./services/Faults.js"
import { Ids, makeSeededIds, randomIds } from "./services/Ids.js"
import { Journal, journalFor } from "./services/Journal.js"
import { jobTicker } from "./features/jobs/JobTicker.js"
import { isDone } from "./http/Immediate.js"
import { Namespace } from "./namespace/Namespace.js"
import { makeNamespace } from "./NamespaceLive.js"
import { loadSnapshotText, SnapshotError } from "./snapshot/NamespaceSnapshot.js"
import { readFile } from "node:fs/promises"

export interface EmulatorShape {
  readonly config: EmulatorConfigShape
  readonly handle: (req: EmuRequest) => Effect.Effect<EmuResponse>
  /** The same as a Promise, run on the emulator's runtime (what the adapters call). */
  readonly respond: (req: EmuRequest) => Promise<EmuResponse>
  /** The socket's entry: the request head, and its body read only if the app gets that far. */
  readonly respondStreaming: (head: EmuRequestHead, body: BodyReader) => Promise<EmuResponse>
  readonly runtime: Runtime.Runtime<EmulatorServices>
  /** A fetch-compatible function answering from the emulator in process. */
  readonly fetch: (input: Request | string | URL, init?: RequestInit) => Promise<Response>
}

export class Emulator extends Context.Tag("hermetic/Emulator")<Emulator, EmulatorShape>() {}

export interface LayerOverrides {
  /** Replace the live clock (e.g. EmuClockFixed). */
  readonly clock?: Layer.Layer<EmuClock>
  /** Seed the id generator for reproducible ids (an `Ids` the context provides wins). */
  readonly seed?: number
  /** The environment Hermes' variables are read from (default: none; the CLI passes process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>
}

/**
 * All services the routes need, built in order by one Effect. A graph of one layer per service
 * cost the start more than the services themselves: each node of a layer graph is ~80 Effect ops
 * in the layer memo map (a semaphore, a deferred, a scope per node), and the 33 nodes the services
 * and the app made took 2,600 of the 3,832 ops a start ran (docs/performance.md, "Cold start").
 */
function* buildServices(config: EmulatorConfigShape, options: EmulatorOptions, overrides: LayerOverrides) {
  const clock = overrides.clock === undefined ? Context.make(EmuClock, makeEmuClock(yield* Effect.clock, options.clockMode)) : yield* Layer.build(overrides.clock)
  const storage = yield* providedStorage(config.sqliteFilename)
  const gateways = yield* acquireGateways(Context.get(clock, EmuClock))
  const services = Context.merge(clock, storage).pipe(
    Context.add(EmulatorConfig, config),
    Context.add(Ids, yield* providedOr(Ids, () => (overrides.seed === undefined ? randomIds : makeSeededIds(overrides.seed)))),
    Context.add(Agent, yield* providedOr(Agent, makeAgent)),
    Context.add(Faults, yield* providedOr(Faults, makeFaults)),
    Context.add(Journal, journalFor(config, options.journal)),
    Context.add(Gateways, gateways),
    Context.add(Runs, makeRuns(gateways))
  )
  const withNamespace = Context.add(services, Namespace, makeNamespace(services))
  // the job ticker plays agent turns, which mark the gateway process warm: it needs every service
  yield* Effect.forkScoped(Effect.provide(jobTicker, withNamespace))
  return withNamespace
}

const emulatorFromServices = Effect.gen(function*() {
  const app = yield* makeApp
  const runtime = yield* Effect.runtime<EmulatorServices>()
  const handle = (req: EmuRequest) => Effect.provide(app.handle(req), runtime.context)
  const run = Runtime.runPromise(runtime)
  // an answer ready at once (most are) is handed back without running a fiber
  const runNow = (answered: Effect.Effect<EmuResponse, never, EmulatorServices>) =>
    isDone(answered) ? Promise.resolve(answered.value) : run(answered)
  const respond = (req: EmuRequest) => runNow(app.handle(req))
  const respondStreaming = (head: EmuRequestHead, body: BodyReader) => runNow(app.serve(head, body))
  return {
    config: app.config,
    handle,
    respond,
    respondStreaming,
    runtime,
    fetch: makeFetch(respond, runtime)
  } satisfies EmulatorShape
})

/** `Emulator.layer(options)`: the whole emulator for an Effect program, services included (one layer, as above). */
export const layer = (options: EmulatorOptions = {}, overrides: LayerOverrides = {}) => {
  const config = resolveConfig(options, overrides.env ?? {})
  return Layer.scopedContext(Effect.gen(() => buildEmulator(config, options, overrides)))
}

function* buildEmulator(config: EmulatorConfigShape, options: EmulatorOptions, overrides: LayerOverrides) {
  const services = yield* Effect.gen(() => buildServices(config, options, overrides))
  const emulator = yield* Effect.provide(Effect.tap(emulatorFromServices, () => startingSnapshot(options.snapshot)), services)
  return Context.add(services, Emulator, emulator)
}

/**
 * `--snapshot FILE`: the state the emulator starts from. A bad file stops the start with its reason.
 * Read with node:fs, not @effect/platform-node's FileSystem: that module loads node:crypto as it
 * loads, which every start would pay for (~1.9 ms; services/NodeCrypto.ts) for this one read.
 */
const startingSnapshot = (file: string | undefined) =>
  file === undefined
    ? Effect.void
    : Effect.tryPromise({
      try: () => readFile(file, "utf8"),
      catch: (e) => new SnapshotError({ message: `cannot read snapshot ${file}: ${e instanceof Error ? e.message : String(e)}` })
    }).pipe(
      Effect.flatMap((text) => loadSnapshotText(text)),
      Effect.catchTag("SnapshotError", (e) => Effect.dieMessage(e.message)),
      Effect.asVoid
    )

export { StartupRefused }

export interface RunningEmulator {
  readonly url: string
  readonly port: number
  readonly config: EmulatorConfigShape
  readonly fetch: EmulatorShape["fetch"]
  readonly close: () => Promise<void>
}

/** Starts the emulator on a loopback port (0 = any free port) for plain-Promise tests. */
export const startEmulator = async (
  options: EmulatorOptions = {},
  overrides: LayerOverrides = {}
): Promise<RunningEmulator> => {
  const runtime = ManagedRuntime.make(layer(options, overrides))
  const emulator = await runtime.runPromise(Emulator)
  const host = options.host ?? emulator.config.host
  try {
    refuseUnsafeStart({ host, apiKey: emulator.config.apiKey, adminKey: emulator.config.adminKey }, overrides.env ?? {})
  } catch (refused) {
    await runtime.dispose()
    throw refused
  }
  const server = await listen(emulator.respondStreaming, emulator.runtime, host, options.port ?? 0)
  return {
    url: `http://${host}:${server.port}`,
    port: server.port,
    config: emulator.config,
    fetch: emulator.fetch,
    close: async () => {
      await server.close()
      await runtime.dispose()
    }
  }
}

export { Gateways, Ids, SqlClient }
