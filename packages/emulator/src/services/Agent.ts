/**
 * Plays the Script where Hermes would run its agent: one ScriptPlayer (from @hermetic/script, the
 * same one the fake model plays) per namespace. The agent loop asks it for every model call.
 */
import { makeScriptPlayer, type Script, type ScriptPlayer, type ScriptRefused } from "@hermetic/script"
import { Effect, Layer } from "effect"

export interface AgentShape {
  /** The namespace's Script player, created on first use. */
  readonly player: (namespace: string) => ScriptPlayer
  /** Appends a Script's turns to the namespace's (what `POST /__admin/script` does): the turns now pending. */
  readonly script: (namespace: string, script: Script) => Effect.Effect<number, ScriptRefused>
  /** Forgets the namespace's Script and position; held calls go as dropped. */
  readonly reset: (namespace: string) => Effect.Effect<void>
}

/** An Effect.Tag: a program scripts the agent as an Effect (`Agent.script(namespace, script)`). */
export class Agent extends Effect.Tag("hermetic/Agent")<Agent, AgentShape>() {}

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
    script: (ns, script) => Effect.suspend(() => player(ns).append(script)),
    reset: (ns) =>
      Effect.suspend(() => {
        const p = players.get(ns)
        players.delete(ns)
        return p === undefined ? Effect.void : p.reset
      })
  }
}

/** The default Agent: no Script in any namespace until one is appended. */
export const AgentLive = Layer.sync(Agent, makeAgent)
