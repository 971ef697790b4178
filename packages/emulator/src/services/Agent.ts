/**
 * Plays the Script where Hermes would run its agent: one queue of turns per namespace, and named
 * holds that keep a reply back until released. A release that arrives before its hold is reached
 * is remembered, so scripts never race their own control steps.
 */
import { Context, Deferred, Effect, Layer } from "effect"
import { EXHAUSTED_REPLY_TEXT, type Script, type Turn } from "../script/Script.js"

/** What the model says when the Script has no turn left: the fake model's fixed "exhausted" text. */
export const DEFAULT_TURN: Turn = { replies: [{ text: EXHAUSTED_REPLY_TEXT }] }

interface NamespaceScript {
  readonly turns: Array<Turn>
  readonly holds: Map<string, Deferred.Deferred<void>>
}

export interface AgentShape {
  readonly enqueue: (namespace: string, script: Script) => Effect.Effect<number>
  /** Takes the next turn (or the default turn when the queue is empty). */
  readonly nextTurn: (namespace: string) => Effect.Effect<Turn>
  readonly pending: (namespace: string) => Effect.Effect<number>
  /** Suspends until the named hold is released. */
  readonly awaitHold: (namespace: string, name: string) => Effect.Effect<void>
  /** Releases a hold; true when something was waiting on it. */
  readonly release: (namespace: string, name: string) => Effect.Effect<boolean>
  /** Holds a reply is waiting on right now (reached and not released): the differ's settle point. */
  readonly waitingHolds: (namespace: string) => Effect.Effect<ReadonlyArray<string>>
  readonly reset: (namespace: string) => Effect.Effect<void>
}

export class Agent extends Context.Tag("hermetic/Agent")<Agent, AgentShape>() {}

export const makeAgent = (): AgentShape => {
  const spaces = new Map<string, NamespaceScript>()
  const space = (ns: string): NamespaceScript => {
    let s = spaces.get(ns)
    if (s === undefined) {
      s = { turns: [], holds: new Map() }
      spaces.set(ns, s)
    }
    return s
  }
  const hold = (ns: string, name: string) =>
    Effect.gen(function*() {
      const holds = space(ns).holds
      const existing = holds.get(name)
      if (existing !== undefined) return existing
      const created = yield* Deferred.make<void>()
      holds.set(name, created)
      return created
    })
  return {
    enqueue: (ns, script) =>
      Effect.sync(() => {
        space(ns).turns.push(...script.turns)
        return space(ns).turns.length
      }),
    nextTurn: (ns) => Effect.sync(() => space(ns).turns.shift() ?? DEFAULT_TURN),
    pending: (ns) => Effect.sync(() => space(ns).turns.length),
    awaitHold: (ns, name) => Effect.flatMap(hold(ns, name), Deferred.await),
    release: (ns, name) =>
      Effect.gen(function*() {
        const waiting = space(ns).holds.has(name)
        const d = yield* hold(ns, name)
        yield* Deferred.succeed(d, undefined)
        return waiting
      }),
    waitingHolds: (ns) =>
      Effect.filter([...space(ns).holds], ([, d]) => Effect.map(Deferred.isDone(d), (done) => !done)).pipe(Effect.map((held) => held.map(([name]) => name))),
    reset: (ns) => Effect.sync(() => void spaces.delete(ns))
  }
}

export const AgentLive = Layer.sync(Agent, makeAgent)
