/**
 * Wall time in seconds, as Hermes reads it from time.time(). Each namespace has its own clock so
 * that tests sharing one emulator cannot move each other's time. Live: real time plus an offset;
 * controllable over the admin plane (set, advance, freeze).
 */
import { Context, Effect, Layer } from "effect"

export interface ClockState {
  readonly offsetSeconds: number
  readonly frozenAt: number | undefined
}

export interface EmuClockShape {
  /** Seconds since the epoch, a float as time.time() gives it. */
  readonly now: (namespace: string) => number
  readonly set: (namespace: string, epochSeconds: number) => Effect.Effect<void>
  readonly advance: (namespace: string, seconds: number) => Effect.Effect<void>
  readonly freeze: (namespace: string, frozen: boolean) => Effect.Effect<void>
  readonly reset: (namespace: string) => Effect.Effect<void>
}

export class EmuClock extends Context.Tag("hermetic/EmuClock")<EmuClock, EmuClockShape>() {}

/** A clock over a real-time source; `source` is injectable so tests can start from a fixed instant. */
export const makeEmuClock = (source: () => number = () => Date.now() / 1000): EmuClockShape => {
  const states = new Map<string, ClockState>()
  const state = (ns: string): ClockState => states.get(ns) ?? { offsetSeconds: 0, frozenAt: undefined }
  const now = (ns: string): number => {
    const s = state(ns)
    return s.frozenAt ?? source() + s.offsetSeconds
  }
  return {
    now,
    set: (ns, epoch) =>
      Effect.sync(() => {
        const s = state(ns)
        states.set(ns, s.frozenAt !== undefined ? { ...s, frozenAt: epoch } : { ...s, offsetSeconds: epoch - source() })
      }),
    advance: (ns, seconds) =>
      Effect.sync(() => {
        const s = state(ns)
        states.set(
          ns,
          s.frozenAt !== undefined
            ? { ...s, frozenAt: s.frozenAt + seconds }
            : { ...s, offsetSeconds: s.offsetSeconds + seconds }
        )
      }),
    freeze: (ns, frozen) =>
      Effect.sync(() => {
        const s = state(ns)
        if (frozen && s.frozenAt === undefined) states.set(ns, { ...s, frozenAt: now(ns) })
        if (!frozen && s.frozenAt !== undefined) {
          states.set(ns, { offsetSeconds: s.frozenAt - source(), frozenAt: undefined })
        }
      }),
    reset: (ns) => Effect.sync(() => void states.delete(ns))
  }
}

export const EmuClockLive = Layer.sync(EmuClock, () => makeEmuClock())

/** Every namespace starts frozen at `epochSeconds`: fully deterministic timestamps. */
export const EmuClockFixed = (epochSeconds: number) =>
  Layer.sync(EmuClock, () => {
    const clock = makeEmuClock()
    const frozen = new Set<string>()
    return {
      ...clock,
      now: (ns) => {
        if (!frozen.has(ns)) {
          frozen.add(ns)
          Effect.runSync(clock.set(ns, epochSeconds))
          Effect.runSync(clock.freeze(ns, true))
          Effect.runSync(clock.set(ns, epochSeconds))
        }
        return clock.now(ns)
      },
      reset: (ns) => Effect.sync(() => void frozen.delete(ns)).pipe(Effect.zipRight(clock.reset(ns)))
    }
  })
