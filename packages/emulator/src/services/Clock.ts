/**
 * The two clocks of the emulated gateway, per namespace, as the oracle runner's libfaketime moves
 * upstream's (packages/oracle-runner/src/gateway/FakeClock.ts, docs/pins/time.md):
 * - **wall**: `time.time()` — timestamps and every TTL comparison;
 * - **loop**: the monotonic clock asyncio's timers and timed thread waits read — the run sweep's
 *   60 s, the cron ticker's 60 s, the approval wait.
 *
 * In the default mode ("both", the runner's default) `set` and `advance` move both clocks by the
 * same amount, backwards too: a set to a past instant puts every loop deadline armed before it
 * that much further away. In "wall" mode (the runner's wall-only clock, the wall-clock profile)
 * they move the wall clock alone and loop time runs on real time. `freeze` stops the wall clock
 * in either mode while loop time runs on (the real default profile refuses it; the emulator keeps
 * it for pinned timestamps).
 *
 * Real time comes from Effect's `Clock`, so `TestClock.adjust` moves both clocks in a test.
 */
import { Clock, Context, Effect, Layer } from "effect"
import type { ClockMode } from "../config/EmulatorConfig.js"

export type { ClockMode }

export interface ClockState {
  /** Seconds added to real time on the wall clock. */
  readonly wallOffset: number
  /** Seconds added to real monotonic time on the loop clock. */
  readonly loopOffset: number
  readonly frozenAt: number | undefined
}

export interface EmuClockShape {
  /** Wall seconds since the epoch, a float as time.time() gives it. */
  readonly now: (namespace: string) => number
  /** Loop (monotonic) seconds: only differences mean anything. */
  readonly loop: (namespace: string) => number
  readonly set: (namespace: string, epochSeconds: number) => Effect.Effect<void>
  readonly advance: (namespace: string, seconds: number) => Effect.Effect<void>
  readonly freeze: (namespace: string, frozen: boolean) => Effect.Effect<void>
  readonly reset: (namespace: string) => Effect.Effect<void>
}

export class EmuClock extends Context.Tag("hermetic/EmuClock")<EmuClock, EmuClockShape>() {}

const START: ClockState = { wallOffset: 0, loopOffset: 0, frozenAt: undefined }

/** A namespace clock pair over Effect's `Clock` (real time, or a TestClock in tests). */
export const makeEmuClock = (source: Clock.Clock, mode: ClockMode = "both"): EmuClockShape => {
  const states = new Map<string, ClockState>()
  const state = (ns: string): ClockState => states.get(ns) ?? START
  // below the millisecond, as Python's time.time() is: two sessions made in one millisecond still
  // list in the order they were made (a millisecond clock tied them, and the tie fell to their ids)
  // both clocks run on the source's nanoseconds; they part only by their offsets and the freeze
  const realSeconds = () => Number(source.unsafeCurrentTimeNanos()) / 1e9
  const now = (ns: string): number => {
    const s = state(ns)
    return s.frozenAt ?? realSeconds() + s.wallOffset
  }
  /** Both clocks forward (or back) by `delta` seconds; the loop clock only in "both" mode. */
  const move = (ns: string, delta: number) => {
    const s = state(ns)
    states.set(ns, {
      wallOffset: s.frozenAt === undefined ? s.wallOffset + delta : s.wallOffset,
      loopOffset: mode === "both" ? s.loopOffset + delta : s.loopOffset,
      frozenAt: s.frozenAt === undefined ? undefined : s.frozenAt + delta
    })
  }
  return {
    now,
    loop: (ns) => realSeconds() + state(ns).loopOffset,
    set: (ns, epoch) => Effect.sync(() => move(ns, epoch - now(ns))),
    advance: (ns, seconds) => Effect.sync(() => move(ns, seconds)),
    freeze: (ns, frozen) =>
      Effect.sync(() => {
        const s = state(ns)
        if (frozen && s.frozenAt === undefined) states.set(ns, { ...s, frozenAt: now(ns) })
        if (!frozen && s.frozenAt !== undefined) states.set(ns, { ...s, wallOffset: s.frozenAt - realSeconds(), frozenAt: undefined })
      }),
    reset: (ns) => Effect.sync(() => void states.delete(ns))
  }
}

/** The clock over whatever `Clock` the context holds (a TestClock under `it.effect`). */
export const EmuClockLive = (mode: ClockMode = "both") => Layer.effect(EmuClock, Effect.map(Effect.clock, (c) => makeEmuClock(c, mode)))
