/**
 * The emulator on a loopback port as an Effect service, for programs (and @effect/vitest tests)
 * whose code under test talks HTTP — an OpenAI SDK, your own client — rather than calling the
 * in-process `Emulator` handler:
 *
 *   it.layer(EmulatorServer.layer())("my app", (it) => {
 *     it.effect("greets", () => Effect.gen(function*() {
 *       const emu = yield* EmulatorServer
 *       yield* emu.script({ turns: [{ replies: [{ text: "Hello" }] }] })
 *       // point your client at emu.url with emu.apiKey
 *     }))
 *   })
 *
 * The server is a scoped resource: it closes when the layer's scope ends.
 */
import { Context, Effect, Layer } from "effect"
import type { Script } from "@hermetic/script"
import { startEmulator, type RunningEmulator } from "../Emulator.js"
import type { EmulatorOptions } from "../config/EmulatorConfig.js"
import { controlClient, type ControlOptions, TEST_API_KEY } from "./controlClient.js"

export interface EmulatorServerShape {
  readonly url: string
  readonly apiKey: string
  readonly headers: Readonly<Record<string, string>>
  readonly emulator: RunningEmulator
  readonly script: (script: Script) => Effect.Effect<void>
  readonly release: (hold: string) => Effect.Effect<void>
  readonly reset: Effect.Effect<void>
}

export class EmulatorServer extends Context.Tag("hermetic/EmulatorServer")<EmulatorServer, EmulatorServerShape>() {
  /** A fresh emulator on a free loopback port for the layer's lifetime. */
  static readonly layer = (options: EmulatorOptions & ControlOptions = {}): Layer.Layer<EmulatorServer> =>
    Layer.scoped(EmulatorServer, Effect.gen(() => serveEmulator(options)))
}

function* serveEmulator(options: EmulatorOptions & ControlOptions) {
  const apiKey = options.apiKey ?? TEST_API_KEY
  const emulator = yield* Effect.acquireRelease(
    Effect.promise(() => startEmulator({ ...options, apiKey })),
    (emu) => Effect.promise(() => emu.close())
  )
  const client = controlClient(emulator.url, apiKey, options)
  const server: EmulatorServerShape = {
    url: client.url,
    apiKey,
    headers: client.headers,
    emulator,
    // a control-plane call that fails is a broken test setup, not a condition to handle
    script: (script) => Effect.promise(() => client.script(script)),
    release: (hold) => Effect.promise(() => client.release(hold)),
    reset: Effect.promise(() => client.reset())
  }
  return server
}
