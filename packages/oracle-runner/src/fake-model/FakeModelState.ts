/**
 * Everything the fake model holds, in one place: the Script player (from @hermetic/script, the
 * engine the emulator plays too), the journal, the call counter, and the gateway controls the
 * oracle runner attaches. The routes read and change it; nothing else does.
 */
import { makeScriptPlayer, MODEL_CALL_WHEN_FIELDS, type ScriptPlayer } from "@hermetic/script"
import { Effect } from "effect"
import type { GatewayControls } from "./GatewayControls.js"
import { Journal } from "./Journal.js"

export interface FakeModelSettings {
  /** The model id listed by /v1/models and echoed in replies. */
  readonly model: string
  /** Pause between SSE chunks, so streaming is observable as streaming. */
  readonly chunkDelayMs: number
}

export interface FakeModelState {
  readonly settings: FakeModelSettings
  readonly player: ScriptPlayer
  readonly journal: Journal
  /** The next chat call's number (completion ids, tool call ids). */
  readonly nextCallSeq: () => number
  readonly gateway: () => GatewayControls
  readonly attachGateway: (controls: GatewayControls) => void
  /** Forgets the Script, lets held calls go as dropped (their connections are cut), clears the journal. */
  readonly reset: Effect.Effect<void>
}

export const makeFakeModelState = (settings: FakeModelSettings): FakeModelState => {
  // the fake model sees what Hermes sends the model: messages and model name, not operation or session
  const player = makeScriptPlayer({ sees: MODEL_CALL_WHEN_FIELDS, name: "the fake model" })
  const journal = new Journal()
  let callSeq = 0
  let gateway: GatewayControls = {}
  return {
    settings,
    player,
    journal,
    nextCallSeq: () => callSeq++,
    gateway: () => gateway,
    attachGateway: (controls) => {
      gateway = controls
    },
    reset: Effect.zipRight(player.reset, Effect.sync(() => journal.clear()))
  }
}
