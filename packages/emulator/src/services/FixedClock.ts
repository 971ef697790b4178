/**
 * A clock for tests that want fixed timestamps without scripting the control plane: every namespace
 * starts with its wall clock frozen at one instant. An emulator aid with no gateway counterpart (the
 * real gateway's clock is moved through libfaketime), so it sits outside the mutation score's scope.
 */
import { Effect, Layer } from "effect"
import { EmuClock, type EmuClockShape, makeEmuClock } from "./Clock.js"

/** Every namespace starts frozen at `epochSeconds`: fully deterministic timestamps. */
export const EmuClockFixed = (epochSeconds: number) =>
  Layer.effect(
    EmuClock,
    Effect.map(Effect.clock, (source) => {
      const clock = makeEmuClock(source)
      const frozen = new Set<string>()
      const pin = (ns: string) => {
        if (frozen.has(ns)) return
        frozen.add(ns)
        Effect.runSync(clock.freeze(ns, true))
        Effect.runSync(clock.set(ns, epochSeconds))
      }
      // pinned before its first read or move, so a move made before any read is not undone
      const pinned = <A>(ns: string, move: Effect.Effect<A>) => Effect.suspend(() => (pin(ns), move))
      return {
        now: (ns) => {
          pin(ns)
          return clock.now(ns)
        },
        loop: (ns) => {
          pin(ns)
          return clock.loop(ns)
        },
        set: (ns, epoch) => pinned(ns, clock.set(ns, epoch)),
        advance: (ns, seconds) => pinned(ns, clock.advance(ns, seconds)),
        freeze: (ns, on) => pinned(ns, clock.freeze(ns, on)),
        reset: (ns) => Effect.sync(() => void frozen.delete(ns)).pipe(Effect.zipRight(clock.reset(ns)))
      } satisfies EmuClockShape
    })
  )
