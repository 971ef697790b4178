/**
 * Every committed cassette (fixtures/<pin>/*.json, recorded from the real gateway) replayed
 * against the emulator on the cassette's pin. A difference that is neither registered
 * (packages/diff/divergence-register.json, with its reason) nor noise learned from the cassette's
 * two recorded runs fails the test, listed with its path and both values. A cassette recorded on
 * the tools profile replays against an emulator with the same toolsets. The emulator is reached
 * through the target the caller builds: in process (its Layer) or over its node:http server.
 */
import { createHash } from "node:crypto"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { NodeContext } from "@effect/platform-node"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readCassette, cassetteFiles, fixturesDir } from "../src/cassette/cassetteFiles.js"
import { compareScenario } from "../src/compare/compareScenario.js"
import { isPinName } from "../src/coverage/emulatorRoutes.js"
import { type DivergenceRegister, loadRegister } from "../src/diff/DivergenceRegister.js"
import { LearnedNoise } from "../src/noise/LearnedNoise.js"
import { emulatorOptionsFor, GATEWAY_PROFILES, type GatewayProfile, profileOf } from "../src/profile/GatewayProfile.js"
import { cassetteTarget } from "../src/target/CassetteTarget.js"
import type { EmulatorTargetOptions } from "../src/target/EmulatorTargets.js"
import type { Target } from "../src/target/Target.js"

export type EmulatorTargetFactory = (options: EmulatorTargetOptions) => Effect.Effect<Target, never, Scope.Scope>

/** Defines the suite: one test per committed cassette, against the emulator `makeTarget` builds. */
export const replayCommittedCassettes = (title: string, makeTarget: EmulatorTargetFactory): void => {
  const pins = readdirSync(fixturesDir(), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .filter(isPinName)

  let scope: Scope.CloseableScope
  let register: DivergenceRegister
  const emulators = new Map<string, Target>()
  const emulatorKey = (pin: string, profile: GatewayProfile) => `${pin}/${profile}`
  beforeAll(async () => {
    scope = Effect.runSync(Scope.make())
    register = await Effect.runPromise(loadRegister().pipe(Effect.provide(NodeContext.layer)))
    for (const pin of pins) {
      for (const profile of GATEWAY_PROFILES) {
        const target = makeTarget({ pin, emulatorOptions: emulatorOptionsFor(profile) })
        emulators.set(emulatorKey(pin, profile), await Effect.runPromise(Scope.extend(target, scope)))
      }
    }
  })
  afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

  describe(title, () => {
    it("has cassettes of the pin every machine can record (0.19.0)", async () => {
      expect((await Effect.runPromise(cassetteFiles(fixturesDir(), "0.19.0").pipe(Effect.provide(NodeContext.layer)))).length).toBeGreaterThan(0)
    })

    for (const pin of pins) {
      const files = readdirSync(join(fixturesDir(), pin)).filter((f) => f.endsWith(".json")).sort()
      // the cassette's content in the test's name: StrykerJS's incremental mode reuses a result
      // while the test's name and file are unchanged, and a re-recorded cassette changes neither
      const named = files.map((name) => [name, createHash("sha256").update(readFileSync(join(fixturesDir(), pin, name))).digest("hex").slice(0, 12)] as const)
      it.each(named)(`${pin}: %s (content %s)`, async (name) => {
        const file = join(fixturesDir(), pin, name)
        const cassette = await Effect.runPromise(readCassette(file).pipe(Effect.provide(NodeContext.layer)))
        const second = cassette.runs[1]
        const noise = new LearnedNoise()
        const comparison = await Effect.runPromise(
          compareScenario(cassetteTarget(cassette, file), emulators.get(emulatorKey(pin, profileOf(cassette.scenario))) as Target, cassette.scenario, { register, pin, noise }, file, second !== undefined ? cassetteTarget(cassette, file, second) : undefined)
        )
        const e = comparison.evidence
        expect(e.error).toBeUndefined()
        const divergences = e.steps
          .flatMap((s) => s.differences)
          .concat(e.differences)
          .filter((d) => d.classification === "divergence")
          .map((d) => `step ${d.step} ${d.operation} ${d.kind} ${d.path}: real ${JSON.stringify(d.expected)} ≠ emulator ${JSON.stringify(d.actual)}`)
        expect(divergences).toEqual([])
      })
    }
  })
}
