/**
 * `Runs`, the service that owns run state: one ProcessRuns per namespace's process, the same one
 * until the process restarts, a new and empty one after.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer } from "effect"
import { Runs, RunsLive } from "../../src/features/runs/Runs.js"
import { Gateways, makeGateways } from "../../src/services/GatewayProcess.js"

const clocks = { now: () => 1_700_000_000, loop: () => 0 }
const layer = RunsLive.pipe(Layer.provideMerge(Layer.sync(Gateways, () => makeGateways(clocks))))

describe("the Runs service", () => {
  it.effect("keeps a namespace's runs while its process lives, and starts a restarted process with none", () =>
    Effect.gen(function*() {
      const runs = yield* Runs
      const gateways = yield* Gateways
      const first = runs.of("a")
      expect(runs.of("a")).toBe(first)
      expect(first.process).toBe(gateways.get("a"))
      expect(runs.of("b")).not.toBe(first)
      yield* first.enter("run_1", { run_id: "run_1", status: "queued" }, false, 1_700_000_000)
      expect(runs.of("a").statusCount).toBe(1)
      expect(runs.of("a").liveCount).toBe(1)
      yield* gateways.restart("a")
      const after = runs.of("a")
      expect(after).not.toBe(first)
      expect(after.process).toBe(gateways.get("a"))
      expect([after.statusCount, after.liveCount]).toEqual([0, 0])
      // the other namespace's process did not restart
      expect(runs.of("b").process.generation).toBe(0)
    }).pipe(Effect.provide(layer)))
  it.effect("lets go of a run's task once it ended: nothing of it stays in the process' background tasks", () =>
    Effect.gen(function*() {
      const runs = yield* Runs
      const processRuns = runs.of("a")
      const live = yield* processRuns.enter("run_1", { run_id: "run_1", status: "queued" }, false, 1_700_000_000)
      const release = yield* Deferred.make<void>()
      const task = yield* Effect.fork(Deferred.await(release))
      processRuns.attach(live, task)
      // while it runs, a restart would interrupt it
      expect(processRuns.process.backgroundTasks.has(task)).toBe(true)
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.await(task)
      // ended: out of live memory, and no reference kept until a restart (docs/performance.md)
      expect(processRuns.liveCount).toBe(0)
      expect(processRuns.process.backgroundTasks.size).toBe(0)
      expect(processRuns.process.backgroundAgentWork).toBe(0)
    }).pipe(Effect.provide(layer)))
})
