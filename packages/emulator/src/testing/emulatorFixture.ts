/**
 * The emulator for plain-Promise test runners (vitest, jest, node:test): one emulator on a
 * loopback port per file, started before the tests and closed after them, reset between tests.
 *
 *   import { afterAll, afterEach, beforeAll } from "vitest"   // jest: the globals
 *   const emu = emulatorFixture({ beforeAll, afterAll, afterEach })
 *   it("greets", async () => {
 *     await emu.script({ turns: [{ replies: [{ text: "Hello" }] }] })
 *     const res = await fetch(`${emu.url}/v1/chat/completions`, { method: "POST", headers: emu.headers, body })
 *   })
 */
import { startEmulator, type RunningEmulator } from "../Emulator.js"
import type { EmulatorOptions } from "../config/EmulatorConfig.js"
import { type ControlClient, controlClient, type ControlOptions, TEST_API_KEY } from "./controlClient.js"

type Hook = (fn: () => Promise<void>, timeout?: number) => unknown

export interface FixtureHooks {
  readonly beforeAll: Hook
  readonly afterAll: Hook
  /** When given, the namespace is reset after every test, so tests do not see each other's state. */
  readonly afterEach?: Hook
}

export interface EmulatorFixture extends ControlClient {
  /** The running emulator (after beforeAll). */
  readonly emulator: RunningEmulator
}

export const emulatorFixture = (hooks: FixtureHooks, options: EmulatorOptions & ControlOptions = {}): EmulatorFixture => {
  let running: { emulator: RunningEmulator; client: ControlClient } | undefined
  const current = () => {
    if (running === undefined) throw new Error("hermetic: the emulator fixture is used outside its tests (before beforeAll or after afterAll)")
    return running
  }
  hooks.beforeAll(async () => {
    const apiKey = options.apiKey ?? TEST_API_KEY
    const emulator = await startEmulator({ ...options, apiKey })
    running = { emulator, client: controlClient(emulator.url, apiKey, options) }
  }, 30_000)
  hooks.afterAll(async () => {
    await running?.emulator.close()
    running = undefined
  })
  hooks.afterEach?.(async () => {
    await running?.client.reset()
  })
  return {
    get emulator() {
      return current().emulator
    },
    get url() {
      return current().client.url
    },
    get apiKey() {
      return current().client.apiKey
    },
    get namespace() {
      return current().client.namespace
    },
    get headers() {
      return current().client.headers
    },
    get journal() {
      return current().client.journal
    },
    script: (script) => current().client.script(script),
    release: (hold) => current().client.release(hold),
    clock: (command) => current().client.clock(command),
    armFault: (rule) => current().client.armFault(rule),
    clearFaults: () => current().client.clearFaults(),
    saveSnapshot: () => current().client.saveSnapshot(),
    loadSnapshot: (snapshot) => current().client.loadSnapshot(snapshot),
    restart: () => current().client.restart(),
    reset: () => current().client.reset()
  }
}

/** One emulator for the length of `body`, closed afterwards whatever happens. */
export const withEmulator = async <A>(body: (emu: EmulatorFixture) => Promise<A>, options: EmulatorOptions & ControlOptions = {}): Promise<A> => {
  const apiKey = options.apiKey ?? TEST_API_KEY
  const emulator = await startEmulator({ ...options, apiKey })
  try {
    return await body({ emulator, ...controlClient(emulator.url, apiKey, options) })
  } finally {
    await emulator.close()
  }
}
