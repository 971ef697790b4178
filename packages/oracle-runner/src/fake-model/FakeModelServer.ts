/**
 * The fake model: a loopback OpenAI-compatible server that plays the Script to the real gateway —
 * the only substitution hermetic makes in the real stack. Served by @effect/platform-node: the
 * HttpApp of FakeModelApp.ts on a NodeHttpServer whose lifetime is a Scope.
 *
 * Closing the scope shuts down gracefully: held calls are dropped (their connections cut, as a
 * model that went away), the server stops accepting, idle keep-alive connections close, calls in
 * flight get `shutdownGraceMs` to finish, and whatever is left is closed.
 *
 * Routes: FakeModelApp.ts (model API) and ControlPlane.ts (the /__admin contract).
 */
import type { ServeError } from "@effect/platform/HttpServerError"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { EXHAUSTED_REPLY_TEXT, type ReceivedCall, type Script } from "@hermetic/script"
import { Context, Effect, Either, Layer, ManagedRuntime, type Scope } from "effect"
import { createServer, type Server } from "node:http"
import { makeFakeModelApp } from "./FakeModelApp.js"
import { makeFakeModelState } from "./FakeModelState.js"
import type { GatewayControls } from "./GatewayControls.js"
import type { JournalEntry } from "./Journal.js"

export type FakeModelOptions = {
  /** 0 (default) picks a free port. */
  readonly port?: number
  /** The model id listed by /v1/models and echoed in replies. */
  readonly model?: string
  /** Pause between SSE chunks, so streaming is observable as streaming. */
  readonly chunkDelayMs?: number
  /** How long calls in flight may take to finish when the server shuts down (default 2000 ms). */
  readonly shutdownGraceMs?: number
}

export type FakeModel = {
  /** http://127.0.0.1:PORT — admin routes live here. */
  readonly url: string
  /** http://127.0.0.1:PORT/v1 — what Hermes' config.yaml points at. */
  readonly baseUrl: string
  readonly port: number
  readonly model: string
  /** Appends a Script's turns; throws when it conditions on what the fake model cannot see (`when.operation`, `when.sessionId`). */
  appendScript(script: Script): number
  release(hold: string): number
  reset(): void
  journal(): ReadonlyArray<JournalEntry>
  /** The model calls answered since the last reset, with the messages Hermes sent (ReceivedCalls.ts). */
  receivedCalls(): ReadonlyArray<ReceivedCall>
  /** Lets the control plane's clock and restart act on the gateway behind this fake model. */
  attachGateway(controls: GatewayControls): void
  close(): Promise<void>
}

/** The text a call gets when the Script has nothing for it. Visible in Hermes' output on purpose. */
export { EXHAUSTED_REPLY_TEXT }

/** A running fake model, for Effect programs (its scope owns the server). */
export class FakeModelServer extends Context.Tag("hermetic/FakeModelServer")<FakeModelServer, Omit<FakeModel, "close">>() {}

/** Waits until the server has no connection left or the grace period is over; a call that finishes frees its keep-alive connection. */
const drained = (server: Server, graceMs: number) =>
  Effect.gen(function*() {
    const deadline = Date.now() + graceMs
    for (;;) {
      server.closeIdleConnections()
      const open = yield* Effect.async<number>((resume) => {
        server.getConnections((_, n) => resume(Effect.succeed(n)))
      })
      if (open === 0 || Date.now() >= deadline) return
      yield* Effect.sleep(10)
    }
  })

/** Starts the fake model in the current scope; closing the scope shuts it down gracefully. */
export const scopedFakeModel = (options: FakeModelOptions = {}): Effect.Effect<Omit<FakeModel, "close">, ServeError, Scope.Scope> =>
  Effect.gen(function*() {
    const state = makeFakeModelState({ model: options.model ?? "hermetic-fake-model", chunkDelayMs: options.chunkDelayMs ?? 0 })
    const node = createServer()
    const server = yield* NodeHttpServer.make(() => node, { port: options.port ?? 0, host: "127.0.0.1" })
    yield* server.serve(makeFakeModelApp(state))
    // added last, so it runs first on close: before the platform stops routing and closes the server
    yield* Effect.addFinalizer(() =>
      Effect.gen(function*() {
        yield* state.player.reset
        node.close()
        yield* drained(node, options.shutdownGraceMs ?? 2000)
        node.closeAllConnections()
      })
    )
    if (server.address._tag !== "TcpAddress") return yield* Effect.dieMessage("the fake model listens on TCP")
    const port = server.address.port
    const url = `http://127.0.0.1:${port}`
    return {
      url,
      baseUrl: `${url}/v1`,
      port,
      model: state.settings.model,
      appendScript: (script) => {
        const pending = Effect.runSync(Effect.either(state.player.append(script)))
        if (Either.isLeft(pending)) throw new Error(pending.left.message)
        return pending.right
      },
      release: (hold) => Effect.runSync(state.player.release(hold)),
      reset: () => Effect.runSync(state.reset),
      journal: () => state.journal.list(),
      receivedCalls: () => Effect.runSync(state.player.received),
      attachGateway: state.attachGateway
    }
  })

export const fakeModelLayer = (options: FakeModelOptions = {}) => Layer.scoped(FakeModelServer, scopedFakeModel(options))

/** The Promise face: a started fake model whose `close()` ends its scope. */
export const startFakeModel = async (options: FakeModelOptions = {}): Promise<FakeModel> => {
  const runtime = ManagedRuntime.make(fakeModelLayer(options))
  const running = await runtime.runPromise(FakeModelServer)
  return { ...running, close: () => runtime.dispose() }
}
