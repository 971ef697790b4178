import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { EmuClock } from "../../src/services/Clock.js"
import { EmuClockFixed } from "../../src/index.js"

const EPOCH = 1_767_225_600 // 2026-01-01T00:00:00Z

describe("EmuClockFixed", () => {
  it.effect("starts every namespace with its wall clock frozen at the epoch, while loop time runs on", () =>
    Effect.gen(function*() {
      const clock = yield* EmuClock
      expect(clock.now("a")).toBe(EPOCH)
      const loop = clock.loop("a")
      yield* TestClock.adjust("30 seconds")
      expect(clock.now("a")).toBe(EPOCH)
      expect(clock.now("b")).toBe(EPOCH)
      expect(clock.loop("a") - loop).toBeCloseTo(30, 6)
    }).pipe(Effect.provide(EmuClockFixed(EPOCH))))

  it.effect("moves when told to, and a reset pins the namespace at the epoch again", () =>
    Effect.gen(function*() {
      const clock = yield* EmuClock
      yield* clock.advance("a", 90)
      expect(clock.now("a")).toBe(EPOCH + 90)
      expect(clock.now("b")).toBe(EPOCH)
      yield* clock.reset("a")
      expect(clock.now("a")).toBe(EPOCH)
    }).pipe(Effect.provide(EmuClockFixed(EPOCH))))
})
