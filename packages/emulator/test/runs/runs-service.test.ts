/**
 * `Runs`, the service that owns run state: one ProcessRuns per namespace's process, the same one
 * until the process restarts, a new and empty one after.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
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
})
