/**
 * Noise learned from the real gateway itself (Diffy's idea): the same Scenario is played twice on
 * the real gateway and every difference between those two runs is noise — for that scenario and
 * step, at that path (array indices generalized). Scoped that tightly so a field that happened to
 * vary in one scenario cannot hide a divergence anywhere else. A difference seen only between the
 * real gateway and the emulator is a divergence.
 */
import { Schema } from "effect"
import { Difference, differenceSignature } from "../diff/Difference.js"

export const NoiseObservation = Schema.Struct({
  signature: Schema.String,
  scenario: Schema.String,
  step: Schema.Number,
  /** One of the differences between the two real runs, as an example. */
  example: Difference
})
export type NoiseObservation = typeof NoiseObservation.Type

const keyOf = (scenario: string, d: Difference) => `${scenario}\u0000${d.step}\u0000${differenceSignature(d)}`

export class LearnedNoise {
  private readonly byKey = new Map<string, NoiseObservation>()

  learn(scenario: string, differences: ReadonlyArray<Difference>): void {
    for (const d of differences) {
      const key = keyOf(scenario, d)
      if (!this.byKey.has(key)) this.byKey.set(key, { signature: differenceSignature(d), scenario, step: d.step, example: d })
    }
  }

  explain(scenario: string, d: Difference): NoiseObservation | undefined {
    return this.byKey.get(keyOf(scenario, d))
  }

  get observations(): ReadonlyArray<NoiseObservation> {
    return [...this.byKey.values()]
  }
}
