/**
 * Named holds: a reply with `hold: "h1"` is kept back until `release("h1")`. A release that comes
 * before the call is remembered, so the order of release and call does not matter — scripts never
 * race their own control steps. A reset lets every waiting call go with `false` (dropped).
 */
import { Deferred, Effect, FiberId } from "effect"

export interface Holds {
  /** Suspends until the hold is released (true) or dropped by a reset (false). */
  readonly wait: (name: string) => Effect.Effect<boolean>
  /** Releases a hold; returns how many waiting calls it let go. */
  readonly release: (name: string) => Effect.Effect<number>
  /** Names with at least one call waiting right now: the differ's settle point. */
  readonly waiting: Effect.Effect<ReadonlyArray<string>>
  readonly reset: Effect.Effect<void>
}

export const makeHolds = (): Holds => {
  const released = new Set<string>()
  // one gate per name that a call waits on; completed true on release, false on reset
  const gates = new Map<string, Deferred.Deferred<boolean>>()
  const waiters = new Map<string, number>()
  const count = (name: string, delta: number) => {
    const n = (waiters.get(name) ?? 0) + delta
    if (n > 0) waiters.set(name, n)
    else waiters.delete(name)
  }
  return {
    wait: (name) =>
      Effect.suspend(() => {
        if (released.has(name)) return Effect.succeed(true)
        let gate = gates.get(name)
        if (gate === undefined) {
          gate = Deferred.unsafeMake<boolean>(FiberId.none)
          gates.set(name, gate)
        }
        count(name, 1)
        return Deferred.await(gate).pipe(Effect.ensuring(Effect.sync(() => count(name, -1))))
      }),
    release: (name) =>
      Effect.suspend(() => {
        released.add(name)
        const letGo = waiters.get(name) ?? 0
        const gate = gates.get(name)
        gates.delete(name)
        return gate === undefined ? Effect.succeed(letGo) : Deferred.succeed(gate, true).pipe(Effect.as(letGo))
      }),
    waiting: Effect.sync(() => [...waiters.keys()]),
    reset: Effect.suspend(() => {
      const dropped = [...gates.values()]
      gates.clear()
      released.clear()
      return Effect.forEach(dropped, (gate) => Deferred.succeed(gate, false), { discard: true })
    })
  }
}
