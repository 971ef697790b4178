import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { EmuClock, EmuClockLive } from "../../src/services/Clock.js"
import * as Emulator from "../../src/Emulator.js"
import { Gateways } from "../../src/services/GatewayProcess.js"

const NS = "clock-test"

describe("the emulator's two clocks", () => {
  it.effect("read Effect's Clock: TestClock.adjust moves wall and loop time alike", () =>
    Effect.gen(function*() {
      const clock = yield* EmuClock
      const wall = clock.now(NS)
      const loop = clock.loop(NS)
      yield* TestClock.adjust("90 seconds")
      expect(clock.now(NS) - wall).toBeCloseTo(90, 6)
      expect(clock.loop(NS) - loop).toBeCloseTo(90, 6)
    }).pipe(Effect.provide(EmuClockLive())))

  it.effect("a set to the past moves the loop clock back by as much as the wall clock (libfaketime's default)", () =>
    Effect.gen(function*() {
      const clock = yield* EmuClock
      const loop = clock.loop(NS)
      const delta = 1_700_000_000 - clock.now(NS)
      yield* clock.set(NS, 1_700_000_000)
      expect(clock.now(NS)).toBeCloseTo(1_700_000_000, 6)
      expect(clock.loop(NS) - loop).toBeCloseTo(delta, 3)
      yield* clock.advance(NS, 120)
      expect(clock.loop(NS) - loop).toBeCloseTo(delta + 120, 3)
    }).pipe(Effect.provide(EmuClockLive())))

  it.effect("on the wall-only clock a set or advance leaves loop time on real time; a freeze stops the wall clock alone", () =>
    Effect.gen(function*() {
      const clock = yield* EmuClock
      const loop = clock.loop(NS)
      yield* clock.set(NS, 1_700_000_000)
      yield* clock.advance(NS, 3_700)
      expect(clock.now(NS)).toBeCloseTo(1_700_003_700, 6)
      expect(clock.loop(NS)).toBeCloseTo(loop, 6)
      yield* clock.freeze(NS, true)
      yield* TestClock.adjust("30 seconds")
      expect(clock.now(NS)).toBeCloseTo(1_700_003_700, 6)
      expect(clock.loop(NS) - loop).toBeCloseTo(30, 6)
      yield* clock.freeze(NS, false)
      yield* TestClock.adjust("5 seconds")
      expect(clock.now(NS)).toBeCloseTo(1_700_003_705, 6)
    }).pipe(Effect.provide(EmuClockLive("wall"))))

  it.effect("the emulator's layer takes its time from TestClock", () =>
    Effect.gen(function*() {
      const clock = yield* EmuClock
      const started = (yield* Gateways).get(NS)
      yield* TestClock.adjust("59 seconds")
      expect(clock.loop(NS) - started.startedLoop).toBeCloseTo(59, 6)
      expect(clock.now(NS) - started.startedAt).toBeCloseTo(59, 6)
    }).pipe(Effect.provide(Layer.fresh(Emulator.layer({ memory: true })))))
})
