/**
 * Plays the Script where Hermes would run its agent: one ScriptPlayer (from @hermetic/script, the
 * same one the fake model plays) per namespace. The agent loop asks it for every model call.
 */
import { makeScriptPlayer, type ScriptPlayer } from "@hermetic/script"
import { Context, Effect, Layer } from "effect"

export interface AgentShape {
  /** The namespace's Script player, created on first use. */
  readonly player: (namespace: string) => ScriptPlayer
  /** Forgets the namespace's Script and position; held calls go as dropped. */
  readonly reset: (namespace: string) => Effect.Effect<void>
}

export class Agent extends Context.Tag("hermetic/Agent")<Agent, AgentShape>() {}

export const makeAgent = (): AgentShape => {
  const players = new Map<string, ScriptPlayer>()
  const player = (ns: string): ScriptPlayer => {
    let p = players.get(ns)
    if (p === undefined) {
      p = makeScriptPlayer()
      players.set(ns, p)
    }
    return p
  }
  return {
    player,
    reset: (ns) =>
      Effect.suspend(() => {
        const p = players.get(ns)
        players.delete(ns)
        return p === undefined ? Effect.void : p.reset
      })
  }
}

export const AgentLive = Layer.sync(Agent, makeAgent)
